import Catalog
import Foundation
import MediaFixtures
import SQLiteCatalog
import Testing

@Suite(.timeLimit(.minutes(5))) struct SQLiteCatalogEngineTests {
    let directory: TemporaryDirectory
    let store: SQLiteCatalogEngine
    init() throws {
        directory = try TemporaryDirectory()
        store = SQLiteCatalogEngine(database: try SQLiteCatalogDatabase(path: directory.file("catalog.sqlite")))
    }

    @Test func pagesNewestFirstWithoutGapsOrDuplicates() async throws {
        try await store.seed(count: 95)
        var seen: [String] = []
        var cursor: FeedPosition?
        repeat {
            let page = try await store.pageOnBothPaths(limit: 20, after: cursor)
            seen += page.items.map(\.id)
            cursor = page.next
        } while cursor != nil
        #expect(seen.count == 95)
        #expect(Set(seen).count == 95)
        #expect(seen == seen.sorted(by: >))
        let first = try await store.page(limit: 1, after: nil).items[0]
        #expect(first.id == "v000000094")
        #expect(try await store.video(id: first.id)?.renditions.map(\.rung) == ["360p", "720p", "1080p"])
        #expect(try first.video().renditions.map(\.rung) == ["360p", "720p", "1080p"])
    }

    @Test func pagingWhilePublishingKeepsTheOriginalItemsExactlyOnce() async throws {
        try await store.seed(count: 60)
        var seen: [String] = []
        var cursor: FeedPosition?
        var publishedMore = false
        repeat {
            let page = try await store.pageOnBothPaths(limit: 7, after: cursor)
            seen += page.items.map(\.id)
            cursor = page.next
            if !publishedMore {
                try await store.seed(count: 10, startingAt: 60)  // newer videos arrive mid-scroll
                publishedMore = true
            }
        } while cursor != nil
        let original = (0..<60).map { String(format: "v%09d", $0) }
        #expect(Set(seen) == Set(original))
        #expect(seen.count == 60)
    }

    @Test func theFeedQuerySeeksThroughItsIndex() async throws {
        try await store.seed(count: 1000)
        let steps = try await store.pagePlan()
        let plan = steps.map { "\($0.id)<\($0.parent): \($0.detail)" }.joined(separator: " | ")
        let top = steps.filter { $0.parent == 0 }.map(\.detail)
        #expect(top.contains { $0.hasPrefix("SEARCH videos USING INDEX videos_feed") }, "\(plan)")
        #expect(!plan.contains("SCAN videos"), "\(plan)")
        // The page itself is never sorted: the index gives its order. Each video's facts are one stored record, so a
        // page never reads the renditions.
        #expect(!plan.contains("TEMP B-TREE"), "\(plan)")
        #expect(!plan.contains("renditions"), "\(plan)")
    }

    @Test func unknownOrUnpublishedVideoIsNil() async throws {
        try await store.seed(count: 3)
        #expect(try await store.video(id: "v000000001")?.renditions.count == 3)
        #expect(try await store.video(id: "nope") == nil)
    }
}
