import Catalog
import Foundation
import Hummingbird
import HummingbirdTesting
import MediaFixtures
import SQLiteCatalog
import Testing

@testable import FeedServer

/// `/v1/feed`'s validators and hot-page cache, through the router: ETags, 304s, Cache-Control, and pages that
/// change on the first request after a publish.
@Suite(.timeLimit(.minutes(5))) struct FeedCachingRoutesTests {
    let rig: ServerRig
    var directory: TemporaryDirectory { rig.directory }
    var store: SQLiteCatalogEngine { rig.store }
    var server: FeedServer { rig.server }
    var app: some ApplicationProtocol { rig.app }

    init() throws { rig = try ServerRig() }

    @Test func pagesCarryAStrongETagAndAShortPublicCacheControl() async throws {
        try await store.seed(count: 5)
        try await app.test(.router) { client in
            try await client.execute(uri: "/v1/feed?limit=2", method: .get) { response in
                #expect(response.status == .ok)
                #expect(response.headers[.cacheControl] == "public, max-age=1, stale-while-revalidate=5")
                let etag = try #require(response.headers[.eTag])
                #expect(etag.hasPrefix("\"") && etag.hasSuffix("\"") && !etag.hasPrefix("W/"))
                #expect(etag.contains(".2.first"))
            }
        }
    }

    @Test func ifNoneMatchWithTheCurrentTagIsA304WithoutABody() async throws {
        try await store.seed(count: 5)
        try await app.test(.router) { client in
            let etag = try #require(try await client.execute(uri: "/v1/feed", method: .get).headers[.eTag])
            for header in [etag, "W/\(etag)", "\"other\", \(etag)", "*"] {
                try await client.execute(uri: "/v1/feed", method: .get, headers: [.ifNoneMatch: header]) { response in
                    #expect(response.status == .notModified, "\(header)")
                    #expect(response.body.readableBytes == 0)
                    #expect(response.headers[.eTag] == etag)
                    #expect(response.headers[.cacheControl] == FeedServer.feedCacheControl)
                }
            }
            let stale = "\"1.10.first\""
            let other = try await client.execute(uri: "/v1/feed", method: .get, headers: [.ifNoneMatch: stale])
            #expect(other.status == .ok)
            // Another limit is another page, with its own tag.
            let limited = try await client.execute(uri: "/v1/feed?limit=3", method: .get, headers: [.ifNoneMatch: etag])
            #expect(limited.status == .ok)
        }
    }

    @Test func aPublishShowsOnTheNextRequestWithANewTag() async throws {
        try await store.seed(count: 5)
        try await app.test(.router) { client in
            let first = try await client.execute(uri: "/v1/feed", method: .get)
            let again = try await client.execute(uri: "/v1/feed", method: .get)
            #expect(again.headers[.eTag] == first.headers[.eTag])
            #expect(again.body == first.body)
            #expect(server.pageCache.count == 1)

            try await store.seed(count: 1, startingAt: 5)
            let old = first.headers[.eTag] ?? ""
            let after = try await client.execute(uri: "/v1/feed", method: .get, headers: [.ifNoneMatch: old])
            #expect(after.status == .ok)
            #expect(after.headers[.eTag] != first.headers[.eTag])
            let page = try JSONSerialization.jsonObject(with: Data(after.body.readableBytesView)) as? [String: Any]
            #expect(((page?["items"] as? [[String: Any]])?.first?["id"] as? String) == "v000000005")
        }
    }

    @Test func pagesBehindIssuedCursorsAreKeptAndHandMadeOnesAreNot() async throws {
        try await store.seed(count: 30)
        try await app.test(.router) { client in
            let first = try await client.json("/v1/feed?limit=10")
            let cursor = try #require(first["next_cursor"] as? String)
            let second = try await client.json("/v1/feed?limit=10&cursor=\(cursor)")
            #expect(server.pageCache.count == 2)
            #expect((second["items"] as? [[String: Any]])?.first?["id"] as? String == "v000000019")
            #expect(
                try await client.json("/v1/feed?limit=10&cursor=\(cursor)")["next_cursor"] as? String
                    == second["next_cursor"] as? String)

            let handMade = FeedCursor(publishedAt: (1_700_000_000 + 5) * 1000, id: "v000000005").encoded
            let deep = try await client.json("/v1/feed?limit=10&cursor=\(handMade)")
            #expect((deep["items"] as? [[String: Any]])?.count == 5)
            #expect(server.pageCache.count == 2)
        }
    }

    @Test func aCachedPageDoesNotHideABadCursorOrLimit() async throws {
        try await store.seed(count: 5)
        try await app.test(.router) { client in
            _ = try await client.json("/v1/feed")
            let bad = [("/v1/feed?cursor=nope", "invalid_cursor"), ("/v1/feed?limit=0", "limit_out_of_range")]
            for (uri, code) in bad {
                try await client.execute(uri: uri, method: .get) { response in
                    #expect(response.status == .badRequest)
                    #expect(response.headers[.cacheControl] == "no-store")
                    #expect(String(buffer: response.body).contains(code))
                }
            }
        }
    }
}
