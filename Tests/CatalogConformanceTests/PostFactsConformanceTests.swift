import Catalog
import MediaModel
import SQLiteCatalog
import Testing

/// A post's caption, title and creator (issue 65) on every engine: from the upload's row to its job's, and from the
/// job to the video's row, its feed record and its item, while playable and once published.
@Suite(.timeLimit(.minutes(10))) struct PostFactsConformanceTests {
    /// Every kind of text a caption may hold: line feeds, quotes, markup, emoji with joiners, right-to-left script.
    static let post = PostFacts(
        caption: "Sunset at \"the pier\" <b>&amp;</b>\nline two 👩‍👩‍👧 مرحبا", title: "Pier, 7 pm",
        creator: "alice")

    @Test(arguments: CatalogEngine.allCases)
    func anUploadsFactsReachItsJobAndItsVideoInEveryStage(engine: CatalogEngine) async throws {
        try await engine.withStore { store in
            try await store.createToken(UploadToken(id: "t1", name: "alice", hash: "h", rateLimit: nil, createdAt: 1))
            let record = UploadRecord(
                id: "u1", tokenID: "t1", length: 10, metadata: "", filename: Array("clip.mp4".utf8), createdAt: 2,
                updatedAt: 2, expiresAt: 100, post: Self.post)
            try await store.createUpload(record)
            #expect(try await store.upload(id: "u1")?.post == Self.post)
            try await store.finishUpload(
                id: "u1", jobID: "m1", sourceName: record.filename, bytes: 10, post: Self.post, now: 3)
            let claimed = try #require(try await store.claimNextJob(owner: "w", now: 4, leaseMilliseconds: 60_000))
            #expect(claimed.post == Self.post)

            var playable = Fixtures.video("m1", hash: "h-m1", publishedAt: 5)
            playable.post = claimed.post
            try await store.publishPlayable(playable, lease: claimed.lease, now: 5)
            #expect(try await store.item(id: "m1")?.video().post == Self.post)
            #expect(try await store.item(id: "m1")?.video().stage == .playable)

            var published = Fixtures.video("m1", hash: "h-m1", publishedAt: 9)
            published.post = claimed.post
            try await store.publish(published, lease: claimed.lease, now: 9)
            let item = try #require(try await store.item(id: "m1")).video()
            #expect(item.post == Self.post && item.stage == .published)
            #expect(try await store.video(id: "m1")?.post == Self.post, "the columns hold what the record does")
            #expect(
                try await store.pageWithGeneration(limit: 10, after: nil).page.items.first?.video().post == Self.post)
        }
    }

    /// A post without facts stays as posts were before: its record has none, and nothing reads back as empty text.
    @Test(arguments: CatalogEngine.allCases)
    func aPostWithoutFactsHasNone(engine: CatalogEngine) async throws {
        try await engine.withStore { store in
            try await Fixtures.queue(store, "m2", now: 1)
            let claimed = try #require(try await store.claimNextJob(owner: "w", now: 2, leaseMilliseconds: 60_000))
            #expect(claimed.post.isEmpty)
            try await store.publish(Fixtures.video("m2", hash: "h-m2"), lease: claimed.lease, now: 3)
            let video = try #require(try await store.video(id: "m2"))
            #expect(video.post == PostFacts())
            #expect(try await store.item(id: "m2")?.record == FeedVideoRecord.encode(video))
        }
    }

    /// The worker's recovery may give a handed-over upload its job before the upload is finished: the job keeps its
    /// row, takes the facts it lacks, and never loses facts it has.
    @Test(arguments: CatalogEngine.allCases)
    func aJobRecoveryMadeFirstTakesTheUploadsFacts(engine: CatalogEngine) async throws {
        try await engine.withStore { store in
            try await store.createToken(UploadToken(id: "t1", name: "alice", hash: "h", rateLimit: nil, createdAt: 1))
            try await store.createUpload(
                UploadRecord(
                    id: "u1", tokenID: "t1", length: 10, metadata: "", filename: [0x61], createdAt: 1, updatedAt: 1,
                    expiresAt: 100, post: Self.post))
            try await store.insertJob(
                id: "m3", sourceName: Array("(recovered)".utf8), bytes: 10, owner: "w", now: 2,
                leaseMilliseconds: 60_000)
            try await store.finishUpload(id: "u1", jobID: "m3", sourceName: [0x61], bytes: 10, post: Self.post, now: 3)
            #expect(try await store.job(id: "m3")?.post == Self.post)
            try await store.finishUpload(
                id: "u1", jobID: "m3", sourceName: [0x61], bytes: 10, post: PostFacts(caption: "other"), now: 4)
            #expect(try await store.job(id: "m3")?.post == Self.post, "a repeated hand-over changes nothing")
        }
    }
}
