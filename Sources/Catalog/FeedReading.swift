/// The feed as clients read it: pages, single videos and items, the generation that changes with them, and the
/// synchronous fast path for a caller on an event loop (a network engine's own is `CatalogEventLoop`'s
/// `EventLoopFeedSource`). Reads only, so a replica can answer them.
package protocol FeedReading: Sendable {
    /// A page (newest first, `limit` 1...50 items after `cursor`) and the catalog generation it belongs to.
    func pageWithGeneration(
        limit: Int, after cursor: FeedPosition?
    ) async throws(CatalogError)
        -> (page: FeedPage, generation: Int64)
    /// A number that changes in every transaction that changes the feed.
    func generation() async throws(CatalogError) -> Int64
    /// A published video's feed item, as the feed shows it, or nil.
    func item(id: String) async throws(CatalogError) -> FeedItem?
    /// A published video with its renditions, or nil.
    func video(id: String) async throws(CatalogError) -> FeedVideo?
    /// Which of `ids` (a few hundred at most) are published videos, in one read: the viewer events' check.
    func publishedVideoIDs(among ids: [String]) async throws(CatalogError) -> Set<String>
    /// Every published video, newest first (the prefetch simulator's catalog).
    func publishedVideos() async throws(CatalogError) -> [FeedVideo]
    func videoCount() async throws(CatalogError) -> Int
    /// One trivial read: the catalog answers (`/healthz`).
    func ping() async throws(CatalogError)
    /// Blocking reads for the feed's event-loop fast path, when the engine has them without a network round trip.
    var synchronousFeed: (any SynchronousFeed)? { get }
}
