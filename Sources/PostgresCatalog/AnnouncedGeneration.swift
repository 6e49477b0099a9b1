package import Catalog
internal import Synchronization

/// The catalog generation as the server announces it (`NOTIFY reel_generation` at each commit that changes the feed),
/// so a feed server answers a kept page without a round trip. Announcements arrive just after their commit: a request
/// in that moment gets the page of the generation before, with that generation's ETag, exactly as a request a moment
/// earlier would have. While the `LISTEN` connection is down the generation is unknown and nothing is answered here.
final class AnnouncedGeneration: SynchronousFeed {
    private let value = Mutex<Int64?>(nil)

    /// Generations only grow (each bump adds one); a late or repeated announcement never moves it back.
    func advance(to generation: Int64) {
        value.withLock { $0 = max($0 ?? generation, generation) }
    }

    var readsPages: Bool { false }

    func forget() {
        value.withLock { $0 = nil }
    }

    func generation() throws(CatalogError) -> Int64 {
        guard let known = value.withLock({ $0 }) else {
            throw CatalogError(.unavailable, "the catalog generation is not known while the LISTEN connection is down")
        }
        return known
    }

    /// Pages need the server: the caller (the feed's fast path) hands the request to the router.
    func pageWithGeneration(
        limit: Int, after cursor: FeedPosition?
    ) throws(CatalogError) -> (page: FeedPage, generation: Int64) {
        throw CatalogError(.unavailable, "a feed page from PostgreSQL needs a round trip; the router reads it")
    }
}
