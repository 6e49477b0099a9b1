import ArgumentParser
import Catalog
import CatalogEngines
import Logging
import PrefetchSim

extension Reel.Simulate {
    /// The published videos of a Reel catalog, opened read-only, with their renditions' real init and first-segment
    /// sizes. Renditions without a hint (published before Reel measured them) are estimated from their bit rate,
    /// and a line on stderr says how many.
    static func feedVideos(at path: String) async throws -> [FeedVideoModel] {
        let models = try await Self.withCatalog(at: path) { try await $0.publishedVideos() }.map {
            video in
            try FeedVideoModel(
                name: video.id, durationMilliseconds: video.durationMilliseconds,
                renditions: video.renditions.map {
                    FeedVideoModel.Rendition(
                        id: $0.rung, averageBandwidth: $0.averageBandwidth, segments: $0.segments,
                        prefetch: $0.prefetch
                    )
                })
        }
        guard !models.isEmpty else { throw ValidationError("\(path): no published videos") }
        let estimated = models.reduce(0) { $0 + $1.estimatedRenditions.count }
        if estimated > 0 {
            printError(
                "simulate: \(estimated) of \(models.reduce(0) { $0 + $1.renditions.count }) renditions have no prefetch hint; "
                    + "their sizes are estimated from AVERAGE-BANDWIDTH x duration, without an init segment")
        }
        return models
    }

    /// The catalog at `path` (a SQLite file), opened read-only and never migrated, for as long as `body` runs.
    static func withCatalog<T: Sendable>(
        at path: String, _ body: @Sendable (any CatalogRoles) async throws -> T
    ) async throws -> T {
        try await CatalogOpener.withReadOnly(.sqlite(path: path), logger: Logger(label: "reel.simulate"), body)
    }
}
