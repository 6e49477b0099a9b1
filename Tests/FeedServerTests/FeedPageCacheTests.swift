import NIOCore
import Testing

@testable import FeedServer

/// The page cache's bounds and its one-generation rule, without a server.
@Suite(.timeLimit(.minutes(5))) struct FeedPageCacheTests {
    func page(_ generation: Int64, bytes: Int = 10) -> FeedPageCache.Page {
        .init(generation: generation, body: ByteBuffer(repeating: 0, count: bytes))
    }

    @Test func holdsAtMostTwoSegmentsOfEntries() {
        let cache = FeedPageCache(segmentEntries: 4, segmentBytes: 1 << 20)
        _ = cache.page(for: .init(limit: 1, cursor: nil), at: 1)
        for limit in 1...50 { cache.store(page(1), for: .init(limit: limit, cursor: nil)) }
        #expect(cache.count <= 8)
        #expect(cache.page(for: .init(limit: 50, cursor: nil), at: 1) != nil)
        #expect(cache.page(for: .init(limit: 1, cursor: nil), at: 1) == nil)
    }

    @Test func holdsAtMostTwoSegmentsOfBytes() {
        let cache = FeedPageCache(segmentEntries: 1000, segmentBytes: 1000)
        _ = cache.page(for: .init(limit: 1, cursor: nil), at: 1)
        for limit in 1...50 { cache.store(page(1, bytes: 300), for: .init(limit: limit, cursor: nil)) }
        #expect(cache.count * 300 <= 2 * 1000)
    }

    @Test func aRecentlyUsedPageSurvivesTheSegmentTurningOver() {
        let cache = FeedPageCache(segmentEntries: 2, segmentBytes: 1 << 20)
        let hot = FeedPageCache.Key(limit: 20, cursor: nil)
        _ = cache.page(for: hot, at: 1)
        cache.store(page(1), for: hot)
        for limit in 1...10 {
            cache.store(page(1), for: .init(limit: limit, cursor: nil))
            #expect(cache.page(for: hot, at: 1) != nil, "evicted after \(limit) other pages")
        }
    }

    @Test func aNewGenerationDropsEveryPage() {
        let cache = FeedPageCache()
        let key = FeedPageCache.Key(limit: 20, cursor: nil)
        _ = cache.page(for: key, at: 1)
        cache.store(page(1), for: key)
        #expect(cache.page(for: key, at: 1) != nil)
        #expect(cache.page(for: key, at: 2) == nil)
        #expect(cache.count == 0)
        cache.store(page(1), for: key)  // read before the publish, stored after: not kept
        #expect(cache.page(for: key, at: 2) == nil)
    }

    /// A generation announced late (PostgreSQL's NOTIFY) must not throw away pages kept at the newer one.
    @Test func anOlderGenerationFindsNothingAndDropsNothing() {
        let cache = FeedPageCache()
        let key = FeedPageCache.Key(limit: 20, cursor: nil)
        _ = cache.page(for: key, at: 5)
        cache.store(page(5), for: key)
        #expect(cache.page(for: key, at: 4) == nil)
        #expect(cache.count == 1)
        #expect(cache.page(for: key, at: 5)?.generation == 5)
    }

    @Test func onlyIssuedCursorsAreHot() {
        let cache = FeedPageCache()
        #expect(cache.isHot(.init(limit: 20, cursor: nil)))
        #expect(!cache.isHot(.init(limit: 20, cursor: "abc")))
        cache.remember(issued: "abc")
        #expect(cache.isHot(.init(limit: 20, cursor: "abc")))
    }

    @Test func aHitOnAHotPageKeepsItsNextCursorIssued() {
        let cache = FeedPageCache(segmentEntries: 2, segmentBytes: 1 << 20)
        let first = FeedPageCache.Key(limit: 20, cursor: nil)
        _ = cache.page(for: first, at: 1)
        cache.store(.init(generation: 1, body: ByteBuffer(), nextCursor: "page2"), for: first)
        cache.remember(issued: "page2")
        for n in 0..<100 { cache.remember(issued: "deep\(n)") }  // a crawler's cursors push it out
        #expect(!cache.isHot(.init(limit: 20, cursor: "page2")))
        #expect(cache.page(for: first, at: 1) != nil)
        #expect(cache.isHot(.init(limit: 20, cursor: "page2")))
    }
}
