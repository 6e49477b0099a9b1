import FeedStore
import MediaModel
import PostgresCatalog
import Testing
import TestServers

/// The PostgreSQL engine's other records read back as written: tokens, uploads and their hand-over to a job, a job's
/// facts and ends, images. Each column type crosses the wire both ways (bigint, integer, double, bytea that is not UTF-8).
@Suite(.timeLimit(.minutes(5))) struct PostgresFeedStoreRecordsTests {
    @Test func tokensAreCreatedListedFoundAndRevokedOnce() async throws {
        let server = try await PostgresTestServer()
        try await PostgresFeedStoreTests.withStore(server, database: "tokens") { store in
            let alice = UploadToken(id: "t1", name: "alice", hash: "hash-a", rateLimit: 2.5, createdAt: 10)
            let bob = UploadToken(id: "t2", name: "bob", hash: "hash-b", rateLimit: nil, createdAt: 10)
            try await store.createToken(alice)
            try await store.createToken(bob)
            let taken = await #expect(throws: CatalogError.self) {
                try await store.createToken(UploadToken(id: "t3", name: "alice", hash: "hash-c", rateLimit: nil, createdAt: 11))
            }
            #expect(taken?.kind == .duplicate)
            #expect(try await store.tokens() == [alice, bob])
            #expect(try await store.token(hash: "hash-b") == bob)
            #expect(try await store.token(hash: "nope") == nil)
            #expect(try await store.revokeToken("alice", now: 50)?.revokedAt == 50)
            #expect(try await store.revokeToken("t1", now: 60)?.revokedAt == 50, "revoking twice keeps the first time")
            #expect(try await store.revokeToken("carol", now: 60) == nil)
            #expect(try await store.token(hash: "hash-a")?.isRevoked == true)
        }
    }

    @Test func anUploadAdvancesExpiresAndBecomesAQueuedJob() async throws {
        let server = try await PostgresTestServer()
        try await PostgresFeedStoreTests.withStore(server, database: "uploads") { store in
            try await store.createToken(UploadToken(id: "t1", name: "alice", hash: "hash-a", rateLimit: nil, createdAt: 1))
            let name: [UInt8] = Array("clip".utf8) + [0xFF, 0x00]
            let upload = UploadRecord(id: "u1", tokenID: "t1", length: 100, metadata: "filename Y2xpcA==", filename: name,
                                      createdAt: 1, updatedAt: 1, expiresAt: 10)
            try await store.createUpload(upload)
            #expect(try await store.upload(id: "u1") == upload)
            #expect(try await store.expiredUploads(now: 10).map(\.id) == ["u1"])

            #expect(try await store.advanceUpload(id: "u1", from: 0, to: 60, expiresAt: 20, now: 5))
            #expect(try await store.advanceUpload(id: "u1", from: 0, to: 70, expiresAt: 20, now: 6) == false, "the offset moved")
            #expect(try await store.expiredUploads(now: 10).isEmpty)

            try await store.assignUploadJob(id: "u1", jobID: "j1", now: 7)
            try await store.assignUploadJob(id: "u1", jobID: "j2", now: 8)
            #expect(try await store.upload(id: "u1")?.jobID == "j1", "the first job id chosen is kept")
            try await store.finishUpload(id: "u1", jobID: "j1", sourceName: name, bytes: 100, now: 9)
            try await store.finishUpload(id: "u1", jobID: "j1", sourceName: [], bytes: 0, now: 12)
            let job = try #require(try await store.job(id: "j1"))
            #expect(job.state == .queued && job.owner == nil && job.sourceName == name && job.epoch == 0 && job.kind == .unknown)
            #expect(try await store.upload(id: "u1")?.finishedAt == 9)

            try await store.deleteUpload(id: "u1")
            #expect(try await store.upload(id: "u1") == nil)
        }
    }

    @Test func aHeldJobRecordsItsFactsProgressAndEnd() async throws {
        let server = try await PostgresTestServer()
        try await PostgresFeedStoreTests.withStore(server, database: "facts") { store in
            for id in ["image", "rejected", "duplicate"] { try await PostgresFeedStoreTests.queueJob(store, id: id, now: 1) }

            let image = try #require(try await store.claimNextJob(owner: "w", now: 10, leaseMilliseconds: 1000))
            try await store.setJobFacts(image.lease, kind: .image, contentHash: "bytes-1", now: 11)
            try await store.setJobProgress(image.lease, progress: 1.5, now: 12)
            var read = try #require(try await store.job(id: image.id))
            #expect(read.kind == .image && read.contentHash == "bytes-1" && read.progress == 1 && read.updatedAt == 12)
            try await store.setJobProgress(image.lease, progress: 0.25, now: 13)
            #expect(try await store.job(id: image.id)?.progress == 0.25)
            try await store.publish(PublishedImage(id: "i1", createdAt: 14, width: 640, height: 480, bytes: 12_345,
                                                   path: "images/i1.webp", contentHash: "bytes-1"), lease: image.lease, now: 14)
            read = try #require(try await store.job(id: image.id))
            #expect(read.state == .published && read.mediaID == "i1" && read.progress == 1 && read.owner == nil)
            #expect(try await store.publishedMedia(contentHash: "bytes-1") == PublishedMedia(kind: .image, id: "i1"))
            #expect(try await store.isPublished(mediaID: "i1"))
            let lost = await #expect(throws: CatalogError.self) { try await store.setJobProgress(image.lease, progress: 0.5, now: 15) }
            #expect(lost?.kind == .leaseLost)
            #expect(lost?.message.contains("the job is published at epoch 1, held by nobody") == true, "\(String(describing: lost))")

            let rejected = try #require(try await store.claimNextJob(owner: "w", now: 20, leaseMilliseconds: 1000))
            try await store.finishJob(rejected.lease, as: .rejected(Rejection(.tooLarge, "4 GB is over 2 GB", path: "x")),
                                      kind: .video, now: 21)
            read = try #require(try await store.job(id: rejected.id))
            #expect(read.state == .rejected && read.reason == .rejected(.tooLarge) && read.lastError == "4 GB is over 2 GB")
            #expect(read.kind == .video && read.owner == nil)

            let duplicate = try #require(try await store.claimNextJob(owner: "w", now: 30, leaseMilliseconds: 1000))
            try await store.finishDuplicate(duplicate.lease, of: PublishedMedia(kind: .image, id: "i1"), now: 31)
            read = try #require(try await store.job(id: duplicate.id))
            #expect(read.state == .published && read.reason == .duplicate && read.mediaID == "i1" && read.kind == .image)
            #expect(try await store.jobCounts() == [.published: 2, .rejected: 1])
            #expect(try await store.jobs(state: .published).map(\.id).sorted() == [duplicate.id, image.id].sorted())
            #expect(try await store.jobsHeld().isEmpty)

            // A job held from intake can be deleted by its holder only.
            try await store.insertJob(id: "held", sourceName: [1, 2], bytes: 2, owner: "intake", now: 40, leaseMilliseconds: 100)
            let notMine = await #expect(throws: CatalogError.self) { try await store.deleteJob(JobLease(id: "held", epoch: 0, owner: "other")) }
            #expect(notMine?.kind == .leaseLost)
            try await store.deleteJob(JobLease(id: "held", epoch: 0, owner: "intake"))
            #expect(try await store.job(id: "held") == nil)
        }
    }
}
