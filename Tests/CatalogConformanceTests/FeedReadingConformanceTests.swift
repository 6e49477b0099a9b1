import Catalog
import Foundation
import MediaModel
import SQLiteCatalog
import Testing

/// `FeedReading` on every engine: pages, cursors, paging while videos are published, the generation, items.
@Suite(.timeLimit(.minutes(10))) struct FeedReadingConformanceTests {
    @Test(arguments: CatalogEngine.allCases)
    func pagesAreNewestFirstWithoutGapsOrDuplicates(engine: CatalogEngine) async throws {
        try await engine.withStore { store in
            try await store.seed(count: 95, startingAt: 0, batch: 40)
            #expect(try await store.videoCount() == 95)
            var seen: [String] = []
            var cursor: FeedPosition?
            repeat {
                let page = try await store.pageWithGeneration(limit: 20, after: cursor).page
                #expect(page.items.count == (seen.count == 80 ? 15 : 20))
                seen += page.items.map(\.id)
                cursor = page.next
            } while cursor != nil
            #expect(seen == (0..<95).reversed().map { String(format: "v%09d", $0) })
            let video = try #require(try await store.video(id: "v000000094"))
            #expect(video.renditions.map(\.rung) == ["360p", "720p", "1080p"])
            let item = try #require(try await store.item(id: "v000000094"))
            #expect(try item.video() == video && item.publishedAt == video.publishedAt)
        }
    }

    @Test(arguments: CatalogEngine.allCases)
    func pagingWhilePublishingShowsTheOriginalItemsExactlyOnce(engine: CatalogEngine) async throws {
        try await engine.withStore { store in
            try await store.seed(count: 60, startingAt: 0, batch: 60)
            var seen: [String] = []
            var cursor: FeedPosition?
            var published = false
            repeat {
                let page = try await store.pageWithGeneration(limit: 7, after: cursor).page
                seen += page.items.map(\.id)
                cursor = page.next
                if !published {
                    try await store.seed(count: 10, startingAt: 60, batch: 10)  // newer videos arrive mid-scroll
                    published = true
                }
            } while cursor != nil
            #expect(seen == (0..<60).reversed().map { String(format: "v%09d", $0) })
            // A new first page starts with what arrived.
            #expect(try await store.pageWithGeneration(limit: 1, after: nil).page.items.first?.id == "v000000069")
        }
    }

    @Test(arguments: CatalogEngine.allCases)
    func aCursorFromOneServerWorksOnAnother(engine: CatalogEngine) async throws {
        try await engine.withCatalog { catalog in
            try await catalog.withStore { first in
                try await first.seed(count: 30, startingAt: 0, batch: 30)
                let page = try await first.pageWithGeneration(limit: 10, after: nil)
                let cursor = try #require(page.page.next)
                try await catalog.withStore { second in
                    let here = try await first.pageWithGeneration(limit: 10, after: cursor)
                    let there = try await second.pageWithGeneration(limit: 10, after: cursor)
                    #expect(here.page.items.map(\.id) == there.page.items.map(\.id))
                    #expect(here.page.items.map(\.record) == there.page.items.map(\.record))
                    #expect(here.page.items.first?.id == "v000000019")
                    #expect(here.generation == there.generation && here.generation == page.generation)
                }
            }
        }
    }

    @Test(arguments: CatalogEngine.allCases)
    func theGenerationMovesWithTheFeedOnly(engine: CatalogEngine) async throws {
        try await engine.withStore { store in
            let start = try await store.generation()
            try await store.seed(count: 2, startingAt: 0, batch: 2)
            let seeded = try await store.generation()
            #expect(seeded != start)
            #expect(try await store.pageWithGeneration(limit: 5, after: nil).generation == seeded)
            // Queueing, claiming, progress and an image leave it alone: none of them changes the feed.
            try await Fixtures.queue(store, "j1", now: 1)
            let job = try #require(try await store.claimNextJob(owner: "w", now: 2, leaseMilliseconds: 60_000))
            try await store.setJobProgress(job.lease, progress: 0.5, now: 3)
            try await store.publish(Fixtures.image("i1", hash: "h-image"), lease: job.lease, now: 4)
            #expect(try await store.generation() == seeded)
            try await Fixtures.queue(store, "j2", now: 5)
            let video = try #require(try await store.claimNextJob(owner: "w", now: 6, leaseMilliseconds: 60_000))
            try await store.publish(Fixtures.video("m2", hash: "h-video"), lease: video.lease, now: 7)
            #expect(try await store.generation() != seeded)
        }
    }

    /// Each rendition's codec, CRF and target SSIM-Y come back as published, the renditions by height and then
    /// H.264, HEVC, AV1 (whatever order they were published in), and the item shows them in that order.
    @Test(arguments: CatalogEngine.allCases)
    func aMultiCodecVideoKeepsEachRenditionsCodecAndRate(engine: CatalogEngine) async throws {
        try await engine.withStore { store in
            let published = Fixtures.multiCodecVideo("m1", hash: "h1")
            try await store.publish(published)
            let video = try #require(try await store.video(id: "m1"))
            let order = ["360p", "360p-hevc", "360p-av1", "720p", "720p-hevc", "720p-av1"]
            #expect(video.renditions.map(\.rung) == order)
            #expect(video.renditions.map(\.videoCodec) == ["h264", "hevc", "av1", "h264", "hevc", "av1"])
            // x264's and x265's CRFs in tenths, SVT-AV1's whole.
            #expect(video.renditions.map(\.crf) == [24.3, 28.6, 38, 22.7, 27.1, 36])
            #expect(video.renditions.map(\.targetSSIMY) == [0.9625, 0.9625, nil, 0.968, 0.968, 0.968])
            for rendition in published.renditions {
                #expect(video.renditions.first { $0.rung == rendition.rung } == rendition)
            }
            // The feed's record holds the same facts, in the same order.
            #expect(try #require(try await store.item(id: "m1")).video() == video)
            // Renditions from before codecs were recorded read back without them, in the record too.
            try await store.publish(Fixtures.video("m2", hash: "h2"))
            let old = try #require(try await store.video(id: "m2"))
            #expect(old.renditions.allSatisfy { $0.videoCodec == nil && $0.crf == nil && $0.targetSSIMY == nil })
            #expect(try #require(try await store.item(id: "m2")).video() == old)
        }
    }

    /// The same video gives the same record on both engines, so the feed server renders the same bytes from either:
    /// a client cannot tell which one served it.
    @Test func bothEnginesStoreTheSameRecordsAndPages() async throws {
        var renders: [[UInt8]] = []
        for engine in CatalogEngine.allCases {
            renders.append(
                try await engine.withStore { store in
                    try await store.publish(Fixtures.video("m1", hash: "h1", publishedAt: 1_700_000_000_000))
                    try await store.publish(Fixtures.video("m2", hash: "h2", publishedAt: 1_700_000_001_000))
                    try await store.publish(Fixtures.multiCodecVideo("m3", hash: "h3"))
                    let page = try await store.pageWithGeneration(limit: 1, after: nil).page
                    let next = try await store.pageWithGeneration(limit: 1, after: page.next).page
                    let item = try #require(try await store.item(id: "m1"))
                    let multiCodec = try #require(try await store.item(id: "m3"))
                    let records: [[UInt8]] = (page.items + next.items + [item, multiCodec]).map(\.record)
                    let videos = try (page.items + next.items + [item, multiCodec]).map { try $0.video() }
                    #expect(
                        videos.contains { $0.storyboard != nil }
                            && videos.contains { $0.renditions.contains { $0.prefetch != nil } }
                            && videos.contains { $0.renditions.contains { $0.targetSSIMY != nil } })
                    return records.joined(separator: [0xFF]) + Array("\(String(describing: page.next))".utf8)
                })
        }
        #expect(renders.count == 2 && renders[0] == renders[1], "\(renders)")
    }
}
