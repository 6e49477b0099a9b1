/// The feed's reads without suspension, for a caller on an event loop (SQLite in WAL mode answers in microseconds).
package protocol SynchronousFeed: Sendable {
    /// False when only the generation is known in-process and pages need the engine's round trip.
    var readsPages: Bool { get }
    func generation() throws(CatalogError) -> Int64
    func pageWithGeneration(
        limit: Int, after cursor: FeedPosition?
    ) throws(CatalogError)
        -> (page: FeedPage, generation: Int64)
}
