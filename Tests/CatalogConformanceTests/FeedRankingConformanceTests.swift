import Catalog
import SQLiteCatalog
import Testing
import ViewerAnalytics

/// `FeedRanking` on every engine: rankings read back whole and in order, numbers only grow (even past deletions),
/// old ones go but never the newest, and a page's items come back for the published ids only.
@Suite(.timeLimit(.minutes(10))) struct FeedRankingConformanceTests {
    @Test(arguments: CatalogEngine.allCases)
    func rankingsReadBackAndNumbersOnlyGrow(engine: CatalogEngine) async throws {
        try await engine.withStore { store in
            #expect(try await store.latestRankingNumber() == nil)
            #expect(try await store.ranking(number: 1) == nil)
            let first = try await store.storeRanking(["b", "a", "c"], madeAt: 1_000)
            let empty = try await store.storeRanking([], madeAt: 2_000)
            // Ids as the catalog allows them: any text, quotes and all.
            let odd = ["v\"1", "ü-2", "line\nbreak", String(repeating: "x", count: 200)]
            let third = try await store.storeRanking(odd, madeAt: 3_000)
            #expect(first < empty && empty < third)
            #expect(try await store.latestRankingNumber() == third)
            #expect(
                try await store.ranking(number: first)
                    == StoredRanking(number: first, madeAt: 1_000, videos: ["b", "a", "c"]))
            #expect(try await store.ranking(number: empty)?.videos == [])
            #expect(try await store.ranking(number: third)?.videos == odd)

            // Made before 2,500: the first two go; the newest stays even when it is old too.
            #expect(try await store.deleteRankings(madeBefore: 2_500) == 2)
            #expect(try await store.ranking(number: first) == nil)
            #expect(try await store.deleteRankings(madeBefore: 10_000) == 0)
            #expect(try await store.latestRankingNumber() == third)
            // A deleted number is never used again: a cursor naming it can only be told it is gone.
            let fourth = try await store.storeRanking(["a"], madeAt: 4_000)
            #expect(fourth > third)
            #expect(try await store.deleteRankings(madeBefore: 10_000) == 1)
            #expect(try await store.latestRankingNumber() == fourth)
        }
    }

    /// A ranking of a large catalog is one row; it reads back as stored.
    @Test(arguments: CatalogEngine.allCases)
    func aRankingOfAHundredThousandVideosReadsBackInOrder(engine: CatalogEngine) async throws {
        try await engine.withStore { store in
            let videos = (0..<100_000).reversed().map { "v\($0)" }
            let number = try await store.storeRanking(videos, madeAt: 1)
            #expect(try await store.ranking(number: number)?.videos == videos)
        }
    }

    @Test(arguments: CatalogEngine.allCases)
    func candidatesAndItemsAreThePublishedVideos(engine: CatalogEngine) async throws {
        try await engine.withStore { store in
            #expect(try await store.rankingCandidates().isEmpty)
            try await store.seed(count: 5, startingAt: 0, batch: 50_000)
            let candidates = try await store.rankingCandidates()
            #expect(
                Set(candidates)
                    == Set(
                        (0..<5).map {
                            EngagingOrder.Candidate(
                                id: SyntheticVideos.video($0).id, publishedAt: SyntheticVideos.video($0).publishedAt)
                        }))
            let ids = ["v000000003", "nope", "v000000001", "v000000003"]
            let items = try await store.publishedItems(ids: ids)
            #expect(Set(items.keys) == ["v000000001", "v000000003"])
            for (id, item) in items {
                #expect(item.id == id)
                #expect(try await store.item(id: id) == item)
            }
            #expect(try await store.publishedItems(ids: []).isEmpty)
        }
    }
}
