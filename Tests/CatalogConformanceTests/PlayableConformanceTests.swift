import Catalog
import MediaModel
import SQLiteCatalog
import Testing

/// A post that plays before its ladder is done (issue 64), on every engine: in the feed as `playable`, replaced in
/// place by the whole ladder, kept when the ladder fails, and withdrawn when the upload is refused.
@Suite(.timeLimit(.minutes(10))) struct PlayableConformanceTests {
    /// A job claimed by `w` at `now`, its lease.
    static func claimed(_ store: some JobQueue, _ id: String, now: Int64) async throws -> JobLease {
        try await Fixtures.queue(store, id, now: now)
        return try #require(try await store.claimNextJob(owner: "w", now: now, leaseMilliseconds: 60_000)).lease
    }

    static func provisional(_ id: String, publishedAt: Int64) -> PublishedVideo {
        var video = Fixtures.video(id, hash: "h-" + id, publishedAt: publishedAt)
        video.masterPath = "videos/\(id).e1.playable/master.m3u8"
        video.renditions = [video.renditions[0]]
        video.storyboard = nil
        return video
    }

    @Test(arguments: CatalogEngine.allCases)
    func aPlayablePostIsInTheFeedThenTheLadderTakesItsPlace(engine: CatalogEngine) async throws {
        try await engine.withStore { store in
            try await store.publish(Fixtures.video("older", hash: "h-older", publishedAt: 1_000))
            let lease = try await Self.claimed(store, "m1", now: 2_000)
            let before = try await store.generation()
            try await store.publishPlayable(Self.provisional("m1", publishedAt: 5_000), lease: lease, now: 5_000)
            #expect(try await store.generation() != before, "a feed page cached before must be refetched")
            let page = try await store.pageWithGeneration(limit: 10, after: nil).page
            #expect(page.items.map(\.id) == ["m1", "older"])
            let playable = try #require(try await store.item(id: "m1")).video()
            #expect(playable.stage == .playable && playable.renditions.count == 1)
            #expect(playable.masterPath == "videos/m1.e1.playable/master.m3u8")
            #expect(try await store.video(id: "m1")?.stage == .playable)
            let stage = try #require(try await store.videoStage(id: "m1"))
            #expect(stage.stage == .playable && stage.masterPath == playable.masterPath)
            let job = try #require(try await store.job(id: "m1"))
            #expect(job.state == .processing && job.mediaID == "m1", "the job names its post while it is processing")
            // The same bytes uploaded again meanwhile are the same post.
            #expect(try await store.publishedMedia(contentHash: "h-m1") == PublishedMedia(kind: .video, id: "m1"))

            let generation = try await store.generation()
            try await store.publish(Fixtures.video("m1", hash: "h-m1", publishedAt: 9_000), lease: lease, now: 9_000)
            #expect(try await store.generation() != generation)
            let published = try #require(try await store.item(id: "m1")).video()
            let ladder = Fixtures.video("m1", hash: "h-m1").renditions
            #expect(published.stage == .published && published.renditions == ladder && ladder.count > 1)
            #expect(published.masterPath == "videos/m1/master.m3u8")
            #expect(published.publishedAt == 5_000, "the post keeps its place in the feed")
            #expect(try await store.video(id: "m1")?.renditions == ladder, "the provisional rendition's row is gone")
            #expect(try await store.pageWithGeneration(limit: 10, after: nil).page.items.map(\.id) == ["m1", "older"])
            #expect(try await store.videoStage(id: "m1")?.stage == .published)
            #expect(try await store.job(id: "m1")?.state == .published)
            #expect(try await store.videoStage(id: "missing") == nil)
        }
    }

    @Test(arguments: CatalogEngine.allCases)
    func aLaterClaimReplacesThePlayableRowAndNeverAPublishedOne(engine: CatalogEngine) async throws {
        try await engine.withStore { store in
            let first = try await Self.claimed(store, "m1", now: 1_000)
            try await store.publishPlayable(Self.provisional("m1", publishedAt: 1_500), lease: first, now: 1_500)
            // The lease expires and another worker claims the job.
            try await store.requeue(first, notBefore: 0, failure: nil, refundAttempt: true, now: 2_000)
            let second = try #require(try await store.claimNextJob(owner: "w2", now: 2_100, leaseMilliseconds: 60_000))
            var again = Self.provisional("m1", publishedAt: 3_000)
            again.masterPath = "videos/m1.e2.playable/master.m3u8"
            let stale = await #expect(throws: CatalogError.self) {
                try await store.publishPlayable(again, lease: first, now: 3_000)
            }
            #expect(stale?.kind == .leaseLost)
            try await store.publishPlayable(again, lease: second.lease, now: 3_000)
            let item = try #require(try await store.item(id: "m1")).video()
            #expect(item.masterPath == again.masterPath && item.publishedAt == 1_500)
            try await store.publish(
                Fixtures.video("m1", hash: "h-m1", publishedAt: 4_000), lease: second.lease, now: 4_000)
            // A job's claim that published nothing can no longer change the published row.
            #expect(try await store.videoStage(id: "m1")?.stage == .published)
        }
    }

    @Test(arguments: CatalogEngine.allCases)
    func aFailedLadderKeepsThePostAndARefusedUploadWithdrawsIt(engine: CatalogEngine) async throws {
        try await engine.withStore { store in
            let failing = try await Self.claimed(store, "f1", now: 1_000)
            try await store.publishPlayable(Self.provisional("f1", publishedAt: 1_100), lease: failing, now: 1_100)
            let refused = try await Self.claimed(store, "r1", now: 1_200)
            try await store.publishPlayable(Self.provisional("r1", publishedAt: 1_300), lease: refused, now: 1_300)
            #expect(try await store.pageWithGeneration(limit: 10, after: nil).page.items.map(\.id) == ["r1", "f1"])

            let failure = ProcessingFailure(.encodeFailed, "the ladder failed", path: "", retryable: false)
            try await store.finishJob(failing, as: .failed(failure), now: 2_000)
            let failed = try #require(try await store.job(id: "f1"))
            #expect(failed.state == .failed && failed.mediaID == "f1", "the job says which post still plays")
            #expect(try await store.videoStage(id: "f1")?.stage == .playable)

            let generation = try await store.generation()
            let rejection = Rejection(.decodeError, "a frame past the first seconds does not decode", path: "")
            try await store.finishJob(refused, as: .rejected(rejection), now: 2_100)
            #expect(try await store.generation() != generation)
            #expect(try await store.pageWithGeneration(limit: 10, after: nil).page.items.map(\.id) == ["f1"])
            #expect(try await store.item(id: "r1") == nil)
            #expect(try await store.videoStage(id: "r1") == nil)
            let rejected = try #require(try await store.job(id: "r1"))
            #expect(rejected.state == .rejected && rejected.mediaID == nil)
            #expect(try await store.publishedMedia(contentHash: "h-r1") == nil)
        }
    }

    @Test(arguments: CatalogEngine.allCases)
    func aRejectionWithdrawsOnlyAPlayablePost(engine: CatalogEngine) async throws {
        try await engine.withStore { store in
            try await store.publish(Fixtures.video("p1", hash: "h-p1", publishedAt: 1_000))
            // A job whose id matches no playable row: its rejection removes nothing.
            let lease = try await Self.claimed(store, "p1", now: 2_000)
            try await store.finishJob(
                lease, as: .rejected(Rejection(.decodeError, "bad", path: "")), now: 2_100)
            #expect(try await store.videoStage(id: "p1")?.stage == .published)
        }
    }
}
