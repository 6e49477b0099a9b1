import Catalog
import SQLiteCatalog
import Testing

/// The whole catalog rather than one role, on every engine: a migrated catalog opened again keeps its data.
@Suite(.timeLimit(.minutes(10))) struct MigrationConformanceTests {
    @Test(arguments: CatalogEngine.allCases)
    func openingAMigratedCatalogAgainKeepsItsData(engine: CatalogEngine) async throws {
        try await engine.withCatalog { catalog in
            try await catalog.withStore { store in
                try await store.seed(count: 3, startingAt: 0, batch: 3)
                try await Fixtures.queue(store, "j1", now: 1)
            }
            let (videos, claimed) = try await catalog.withStore { store in
                (
                    try await store.videoCount(),
                    try await store.claimNextJob(owner: "w", now: 2, leaseMilliseconds: 1_000)
                )
            }
            #expect(videos == 3)
            #expect(claimed?.epoch == 1 && claimed?.id == "j1")
        }
    }
}
