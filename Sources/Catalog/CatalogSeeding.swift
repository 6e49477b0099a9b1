/// Writes outside any job, which production never makes: tests, benchmarks, imports and `reel db seed`. Kept apart
/// from `Publishing` so that no worker or server can publish without a lease.
package protocol CatalogSeeding: Sendable {
    /// `count` synthetic published videos (`SyntheticVideos`), for tests and benchmarks.
    func seed(count: Int, startingAt start: Int, batch: Int) async throws(CatalogError)
    /// A video outside any job (tests, imports).
    func publish(_ video: PublishedVideo) async throws(CatalogError)
}
