import Catalog
import MediaModel
import SQLiteCatalog
import Testing
import ViewerAnalytics

/// Deleting a post (issue 65) on every engine: one transaction takes its rows and leaves a tombstone; a worker still
/// holding its job is fenced out; a second deletion changes nothing; the files' removal is recorded and tombstones
/// are forgotten only once their files are gone.
@Suite(.timeLimit(.minutes(10))) struct PostRemovalConformanceTests {
    static func stats(_ video: String) -> VideoStats {
        VideoStats(
            video: video, views: 2, sessions: 2, startupMedianMilliseconds: 300, startupP90Milliseconds: 900,
            rebufferRatio: 0.1, meanWatchedFraction: 0.5, completionRate: 0.5, bytesPerView: 1e6, retention: [1, 0.5])
    }

    /// A published post of token `t1`'s upload, with viewers' events and figures, beside another post.
    static func setUp(_ store: any CatalogRoles & CatalogSeeding) async throws {
        try await store.createToken(UploadToken(id: "t1", name: "alice", hash: "h1", rateLimit: nil, createdAt: 1))
        try await store.createUpload(
            UploadRecord(
                id: "m1", tokenID: "t1", length: 10, metadata: "", filename: [0x61], createdAt: 1, updatedAt: 1,
                expiresAt: 100))
        try await store.assignUploadJob(id: "m1", jobID: "m1", now: 2)
        try await store.finishUpload(id: "m1", jobID: "m1", sourceName: [0x61], bytes: 10, post: PostFacts(), now: 2)
        let lease = try #require(try await store.claimNextJob(owner: "w", now: 3, leaseMilliseconds: 60_000)).lease
        try await store.publish(Fixtures.video("m1", hash: "h-m1", publishedAt: 5_000), lease: lease, now: 4)
        try await store.publish(Fixtures.video("other", hash: "h-other", publishedAt: 4_000))
        try await store.appendViewerEvents(
            ["m1", "m1", "other"].enumerated().map { index, video in
                ReceivedViewerEvent(
                    receivedAt: Int64(10 + index),
                    event: ViewerEvent(session: "s", video: video, kind: .stall(milliseconds: 100)))
            })
        try await store.replaceVideoStats([stats("m1"), stats("other")], rolledAt: 20)
    }

    @Test(arguments: CatalogEngine.allCases)
    func aDeletedPostLeavesEveryPageAndOnlyItsTombstoneStays(engine: CatalogEngine) async throws {
        try await engine.withStore { store in
            try await Self.setUp(store)
            #expect(try await store.uploaderTokenID(ofVideo: "m1") == "t1")
            #expect(try await store.uploaderTokenID(ofVideo: "other") == nil, "seeded: no uploader")
            let before = try await store.generation()
            let outcome = try await store.removePost(id: "m1", reason: "creator", now: 30)
            #expect(
                outcome
                    == .removed(
                        .init(video: true, renditions: 2, viewerEvents: 2, stats: true, job: true, uploads: 1)))
            #expect(try await store.generation() != before, "a cached page must be refetched")
            #expect(try await store.pageWithGeneration(limit: 10, after: nil).page.items.map(\.id) == ["other"])
            #expect(try await store.item(id: "m1") == nil)
            #expect(try await store.video(id: "m1") == nil)
            #expect(try await store.job(id: "m1") == nil)
            #expect(try await store.upload(id: "m1") == nil)
            #expect(try await store.viewerEvents(after: 0, limit: 10).map(\.event.video) == ["other"])
            #expect(try await store.videoStats(video: "m1") == nil)
            #expect(try await store.videoStats(video: "other") != nil)
            #expect(try await store.publishedMedia(contentHash: "h-m1") == nil, "the same bytes may be posted again")
            #expect(try await store.uploaderTokenID(ofVideo: "m1") == nil)
            let tombstone = Tombstone(id: "m1", deletedAt: 30, reason: "creator")
            #expect(try await store.tombstone(id: "m1") == tombstone)
            #expect(try await store.isDeleted(id: "m1"))
            #expect(try await !store.isDeleted(id: "other"))

            let generation = try await store.generation()
            #expect(try await store.removePost(id: "m1", reason: "admin", now: 40) == .alreadyRemoved(tombstone))
            #expect(try await store.generation() == generation, "a second deletion changes nothing")
            #expect(try await store.removePost(id: "never", reason: "admin", now: 40) == .notFound)
            #expect(try await store.tombstone(id: "never") == nil)
        }
    }

    /// A worker holding the deleted post's job can neither publish it nor move the job on: its lease is gone.
    @Test(arguments: CatalogEngine.allCases)
    func aJobStillRunningIsFencedOut(engine: CatalogEngine) async throws {
        try await engine.withStore { store in
            try await Fixtures.queue(store, "m2", now: 1)
            let lease = try #require(try await store.claimNextJob(owner: "w", now: 2, leaseMilliseconds: 60_000)).lease
            try await store.publishPlayable(
                PlayableConformanceTests.provisional("m2", publishedAt: 3), lease: lease, now: 3)
            #expect(
                try await store.removePost(id: "m2", reason: "creator", now: 4)
                    == .removed(.init(video: true, renditions: 1, viewerEvents: 0, stats: false, job: true, uploads: 0))
            )
            await #expect(throws: CatalogError.self) {
                try await store.publish(Fixtures.video("m2", hash: "h-m2"), lease: lease, now: 5)
            }
            await #expect(throws: CatalogError.self) {
                try await store.publishPlayable(
                    PlayableConformanceTests.provisional("m2", publishedAt: 5), lease: lease, now: 5)
            }
            #expect(try await store.renewLease(lease, until: 100_000, now: 5) == false)
            #expect(try await store.item(id: "m2") == nil)
            #expect(try await store.job(id: "m2") == nil)

            // A queued job not yet published is a post too; an image is not.
            try await Fixtures.queue(store, "m3", now: 6)
            #expect(
                try await store.removePost(id: "m3", reason: "creator", now: 7)
                    == .removed(
                        .init(video: false, renditions: 0, viewerEvents: 0, stats: false, job: true, uploads: 0)))
            #expect(try await store.claimNextJob(owner: "w", now: 8, leaseMilliseconds: 60_000) == nil)
            try await Fixtures.queue(store, "i1", now: 9)
            let image = try #require(try await store.claimNextJob(owner: "w", now: 10, leaseMilliseconds: 60_000))
            try await store.setJobFacts(image.lease, kind: .image, contentHash: "h-i1", now: 10)
            #expect(try await store.removePost(id: "i1", reason: "creator", now: 11) == .notFound)
            #expect(try await store.job(id: "i1") != nil)
        }
    }

    /// Files first, then the tombstone may go: a tombstone whose files are not known gone is kept whatever its age.
    @Test(arguments: CatalogEngine.allCases)
    func tombstonesAwaitTheirFilesAndAreForgottenAfterTheRetention(engine: CatalogEngine) async throws {
        try await engine.withStore { store in
            for (index, id) in ["a1", "a2", "a3"].enumerated() {
                try await store.publish(Fixtures.video(id, hash: "h-" + id))
                _ = try await store.removePost(id: id, reason: "admin", now: Int64(100 + index))
            }
            #expect(try await store.tombstonesAwaitingMedia(limit: 10).map(\.id) == ["a1", "a2", "a3"])
            #expect(try await store.tombstonesAwaitingMedia(limit: 2).map(\.id) == ["a1", "a2"])
            try await store.markMediaRemoved(id: "a2", now: 200)
            try await store.markMediaRemoved(id: "a2", now: 300)
            #expect(try await store.tombstone(id: "a2")?.mediaRemovedAt == 200, "the first time is kept")
            #expect(try await store.tombstonesAwaitingMedia(limit: 10).map(\.id) == ["a1", "a3"])
            #expect(try await store.purgeTombstones(deletedBefore: 1_000) == 1, "only the one whose files are gone")
            #expect(try await store.tombstone(id: "a2") == nil)
            #expect(try await store.tombstone(id: "a1") != nil)
            try await store.markMediaRemoved(id: "a1", now: 400)
            #expect(try await store.purgeTombstones(deletedBefore: 100) == 0, "not yet past the retention")
            #expect(try await store.purgeTombstones(deletedBefore: 101) == 1)
        }
    }
}
