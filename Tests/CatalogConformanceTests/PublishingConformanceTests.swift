import Catalog
import MediaModel
import SQLiteCatalog
import Testing

/// `Publishing` on every engine: what a publish stores, duplicates found by their bytes, and a job finished as one.
@Suite(.timeLimit(.minutes(10))) struct PublishingConformanceTests {
    @Test(arguments: CatalogEngine.allCases)
    func aPublishedVideoKeepsEveryColumn(engine: CatalogEngine) async throws {
        try await engine.withStore { store in
            let published = Fixtures.video("m1", hash: "h1")
            try await store.publish(published)
            let video = try #require(try await store.video(id: "m1"))
            #expect(video.renditions == published.renditions)
            #expect(video.storyboard == published.storyboard)
            #expect(video.loudness == published.loudness && video.loudness != nil)
            let item = try #require(try await store.item(id: "m1"))
            #expect(try item.video().loudness == published.loudness)
            #expect(video.durationMilliseconds == 15_250 && video.width == 1080 && video.height == 1920)
            #expect(video.masterPath == published.masterPath && video.posterWebPPath == published.posterWebPPath)
            #expect(try await store.publishedVideos().map(\.id) == ["m1"])
            #expect(try await store.video(id: "missing") == nil)
            #expect(try await store.item(id: "missing") == nil)
            #expect(try await store.publishedMedia(contentHash: "h1") == PublishedMedia(kind: .video, id: "m1"))
            #expect(try await store.isPublished(mediaID: "m1"))
            #expect(try await !store.isPublished(mediaID: "m2"))
            try await store.ping()
        }
    }

    @Test(arguments: CatalogEngine.allCases)
    func aDuplicateRollsBackAndIsRecordedAsOne(engine: CatalogEngine) async throws {
        try await engine.withStore { store in
            try await Fixtures.queue(store, "j1", now: 1)
            try await Fixtures.queue(store, "j2", now: 2)
            let first = try #require(try await store.claimNextJob(owner: "w", now: 3, leaseMilliseconds: 60_000))
            let second = try #require(try await store.claimNextJob(owner: "w", now: 3, leaseMilliseconds: 60_000))
            try await store.publish(Fixtures.image("i1", hash: "same"), lease: first.lease, now: 4)
            let error = await #expect(throws: CatalogError.self) {
                try await store.publish(Fixtures.image("i2", hash: "same"), lease: second.lease, now: 5)
            }
            #expect(error?.kind == .duplicate)
            #expect(try await store.job(id: "j2")?.state == .processing, "the refused publish changed nothing")
            let existing = try #require(try await store.publishedMedia(contentHash: "same"))
            #expect(existing == PublishedMedia(kind: .image, id: "i1"))
            try await store.finishDuplicate(second.lease, of: existing, now: 6)
            let duplicate = try #require(try await store.job(id: "j2"))
            #expect(duplicate.state == .published && duplicate.reason == .duplicate && duplicate.mediaID == "i1")
            #expect(duplicate.lastError?.contains("i1") == true)
        }
    }
}
