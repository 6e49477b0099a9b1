import Catalog
import Foundation
import Hummingbird
import HummingbirdTesting
import MediaFixtures
import SQLiteCatalog
import Testing
import ViewerAnalytics

@testable import FeedServer

/// `GET /v1/feed` with `--feed-order engaging`: pages of stored rankings, a cursor pinned to the ranking it began on.
@Suite(.timeLimit(.minutes(5))) struct EngagingFeedRoutesTests {
    let rig: ServerRig
    var store: SQLiteCatalogEngine { rig.store }
    let server: FeedServer

    init() throws {
        rig = try ServerRig()
        var server = rig.server
        server.feedOrder = .engaging(rig.store)
        self.server = server
    }

    var app: some ApplicationProtocol { Application(router: server.router()) }

    struct Generator {
        var state: UInt64
        mutating func next(_ bound: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((state >> 33) % UInt64(bound))
        }
        mutating func shuffled(_ values: [String]) -> [String] {
            var values = values
            for index in values.indices.reversed() where index > 0 { values.swapAt(index, next(index + 1)) }
            return values
        }
    }

    static func figures(_ id: String, views: Int, completion: Double) -> VideoStats {
        VideoStats(
            video: id, views: views, sessions: views, startupMedianMilliseconds: 300, startupP90Milliseconds: 900,
            rebufferRatio: 0, meanWatchedFraction: completion, completionRate: completion, bytesPerView: 0,
            retention: [1])
    }

    /// The property: whatever happens between two pages (new rankings stored, figures rolled up and ranked again,
    /// new videos published, old rankings deleted), the pages of one cursor are exactly the ranking it began on, in
    /// its order, without the one id in it that is not a published video. 40 random sessions.
    @Test func pagingWhileScoresChangeNeitherRepeatsNorSkips() async throws {
        try await store.seed(count: 60)
        let ranker = EngagingRanker(catalog: store)
        try await app.test(.router) { client in
            var published = (0..<60).map { String(format: "v%09d", $0) }
            var random = Generator(state: 7)
            var clock: Int64 = 1_800_000_000_000
            for session in 0..<40 {
                // The ranking this session begins on: the newest, which always holds one id that is not a video.
                var first = random.shuffled(published)
                first.insert("never-published", at: random.next(first.count + 1))
                clock += 1000
                let number = try await store.storeRanking(first, madeAt: clock)
                let limit = 1 + random.next(12)
                var ids: [String] = []
                var cursor: String?
                repeat {
                    let page = try await client.json("/v1/feed?limit=\(limit)" + (cursor.map { "&cursor=\($0)" } ?? ""))
                    let items = (page["items"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? String }
                    #expect(items.count <= limit)
                    ids += items
                    cursor = page["next_cursor"] as? String
                    if let cursor { #expect(try RankedCursor(decoding: cursor).ranking == number) }
                    // 20 s a page: a session of 100 pages stays within the hour its ranking is kept.
                    clock += 20_000
                    switch random.next(4) {
                    case 0:
                        _ = try await store.storeRanking(random.shuffled(published), madeAt: clock)
                    case 1:
                        let stats = random.shuffled(published).prefix(10).map {
                            Self.figures($0, views: 1 + random.next(500), completion: Double(random.next(11)) / 10)
                        }
                        try await store.replaceVideoStats(stats.sorted { $0.video < $1.video }, rolledAt: clock)
                        try await ranker.refresh(now: clock)
                    case 2 where published.count < 100:
                        try await store.seed(count: 2, startingAt: published.count)
                        published += [published.count, published.count + 1].map { String(format: "v%09d", $0) }
                    default:
                        // Older rankings go; the session's own is the newest-but-some, and within the hour kept.
                        _ = try await store.deleteRankings(madeBefore: clock - 3_600_000)
                    }
                } while cursor != nil
                #expect(ids == first.filter { $0 != "never-published" }, "session \(session), limit \(limit)")
            }
        }
    }

    @Test func theFirstPageFollowsTheNewestRankingAndRevalidates() async throws {
        try await store.seed(count: 5)
        _ = try await store.storeRanking(["v000000002", "v000000000"], madeAt: 1)
        let newest = try await store.storeRanking(["v000000004", "v000000001", "v000000003"], madeAt: 2)
        try await app.test(.router) { client in
            let page = try await client.json("/v1/feed?limit=2")
            #expect(
                (page["items"] as? [[String: Any]])?.compactMap { $0["id"] as? String } == ["v000000004", "v000000001"])
            let cursor = try #require(page["next_cursor"] as? String)
            #expect(try RankedCursor(decoding: cursor) == RankedCursor(ranking: newest, offset: 2))
            let last = try await client.json("/v1/feed?limit=2&cursor=\(cursor)")
            #expect((last["items"] as? [[String: Any]])?.compactMap { $0["id"] as? String } == ["v000000003"])
            #expect(last["next_cursor"] is NSNull)
            let etag = try await client.execute(uri: "/v1/feed?limit=2", method: .get) { $0.headers[.eTag] }
            try await client.execute(
                uri: "/v1/feed?limit=2", method: .get, headers: [.ifNoneMatch: try #require(etag)]
            ) { response in
                #expect(response.status == .notModified)
            }
            // A publish changes the catalog's generation, and so the tag, though the ranking is the same.
            try await store.seed(count: 1, startingAt: 5)
            try await client.execute(uri: "/v1/feed?limit=2", method: .get, headers: [.ifNoneMatch: etag!]) {
                #expect($0.status == .ok)
            }
        }
    }

    @Test func aCursorWhoseRankingIsGoneIs410AndARecentCursorIs400() async throws {
        try await store.seed(count: 3)
        try await app.test(.router) { client in
            try await client.execute(uri: "/v1/feed", method: .get) { response in
                #expect(response.status == .serviceUnavailable)
                #expect(response.headers[.retryAfter] == "1")
                #expect(String(buffer: response.body).contains("ranking_not_ready"))
            }
            let old = try await store.storeRanking(["v000000000", "v000000001", "v000000002"], madeAt: 1)
            let page = try await client.json("/v1/feed?limit=1")
            let cursor = try #require(page["next_cursor"] as? String)
            _ = try await store.storeRanking(["v000000002"], madeAt: 2)
            #expect(try await store.deleteRankings(madeBefore: 2) == 1)
            // This server still holds the ranking in memory and goes on serving it (it never changes)...
            let kept = try await client.json("/v1/feed?limit=1&cursor=\(cursor)")
            #expect((kept["items"] as? [[String: Any]])?.first?["id"] as? String == "v000000001")
            // ...and another server on the same catalog, which never read it, says it is gone.
            var other = FeedServer(store: store, media: nil)
            other.feedOrder = .engaging(store)
            try await Application(router: other.router()).test(.router) { otherClient in
                try await otherClient.execute(uri: "/v1/feed?limit=1&cursor=\(cursor)", method: .get) { response in
                    #expect(response.status == .gone)
                    let body = String(buffer: response.body)
                    #expect(body.contains("cursor_expired") && body.contains("ranking \(old)"), "\(body)")
                }
            }
            let recent = FeedCursor(publishedAt: 1_700_000_001_000, id: "v000000001").encoded
            try await client.execute(uri: "/v1/feed?cursor=\(recent)", method: .get) { response in
                #expect(response.status == .badRequest)
                #expect(String(buffer: response.body).contains("newest-first"))
            }
            for bad in ["v2:0:1", "v2:1:-1", "v2:1:100000001", "v2:x:1", "v2:1"] {
                let text = Base64URL.encode(bad.utf8)
                try await client.execute(uri: "/v1/feed?cursor=\(text)", method: .get) { response in
                    #expect(response.status == .badRequest, "\(bad)")
                }
            }
        }
    }

    /// The ranker stores a ranking only when the order changed, and keeps the newest however old.
    @Test func theRankerStoresOnlyAChangedOrder() async throws {
        try await store.seed(count: 4)
        let ranker = EngagingRanker(catalog: store)
        let day: Int64 = 86_400_000
        let first = try await ranker.refresh(now: 1_800_000_000_000)
        #expect(first.stored)
        // Days later, with no new figures: the same order, so nothing new.
        let same = try await ranker.refresh(now: 1_800_000_000_000 + 3 * day)
        #expect(!same.stored && same.ranking == first.ranking && same.deleted == 0)
        // The oldest video proves itself: a new order, and the old ranking (days old) goes.
        try await store.replaceVideoStats(
            [
                Self.figures("v000000000", views: 5000, completion: 1),
                Self.figures("v000000001", views: 5000, completion: 0),
            ],
            rolledAt: 1)
        let changed = try await ranker.refresh(now: 1_800_000_000_000 + 3 * day)
        #expect(changed.stored && changed.ranking > first.ranking && changed.deleted == 1)
        #expect(try await store.ranking(number: changed.ranking)?.videos.first == "v000000000")
    }
}
