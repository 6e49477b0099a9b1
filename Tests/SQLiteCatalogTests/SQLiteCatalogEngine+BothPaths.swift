import Catalog
import SQLiteCatalog
import Testing

/// The feed's two reads, each on both of the store's paths: GRDB's async read (the router's, and every caller in
/// async code) and `SynchronousFeed` (the event loop's fast path, over SQLiteFeedReader). They must agree.
///
/// The synchronous read runs here on the concurrency pool, which the server never does: it answers in microseconds in
/// WAL mode (SQLiteFeedReader's busy timeout is 100 ms), and a test waits for nothing else meanwhile.
extension SQLiteCatalogEngine {
    func pageOnBothPaths(limit: Int, after cursor: FeedPosition?) async throws -> FeedPage {
        let routed = try await pageWithGeneration(limit: limit, after: cursor)
        let fast = try (self as any SynchronousFeed).pageWithGeneration(limit: limit, after: cursor)
        #expect(routed.page == fast.page, "GRDB's page and the fast path's differ")
        #expect(routed.generation == fast.generation, "GRDB's page generation and the fast path's differ")
        return routed.page
    }

    func generationOnBothPaths() async throws -> Int64 {
        let routed = try await generation()
        let fast = try (self as any SynchronousFeed).generation()
        #expect(routed == fast, "GRDB's generation and the fast path's differ")
        return routed
    }
}
