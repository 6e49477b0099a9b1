import Catalog
import SQLiteCatalog
import Testing

/// `publishedVideoIDs(among:)`, the viewer events' check, on every engine: the published ids of those asked about,
/// each once, and nothing for ids that are not a video.
@Suite(.timeLimit(.minutes(10))) struct PublishedVideoIDsConformanceTests {
    @Test(arguments: CatalogEngine.allCases)
    func onlyThePublishedOfTheIdsAskedAreNamed(engine: CatalogEngine) async throws {
        try await engine.withStore { store in
            try await store.seed(count: 3, startingAt: 0, batch: 3)
            let asked = ["v000000002", "nope", "v000000000", "v000000002", "'; DROP TABLE videos; --"]
            #expect(try await store.publishedVideoIDs(among: asked) == ["v000000000", "v000000002"])
            #expect(try await store.publishedVideoIDs(among: []).isEmpty)
            #expect(try await store.videoCount() == 3)
        }
    }
}
