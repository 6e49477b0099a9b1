import Catalog
import Foundation
import SQLiteCatalog
import Testing

/// `UploadLedger` on every engine: resumable uploads, their offsets and expiry, and their hand-over to the job queue.
@Suite(.timeLimit(.minutes(10))) struct UploadLedgerConformanceTests {
    @Test(arguments: CatalogEngine.allCases)
    func anUploadAdvancesOnlyFromItsOffsetAndBecomesAQueuedJob(engine: CatalogEngine) async throws {
        try await engine.withStore { store in
            try await store.createToken(UploadToken(id: "t1", name: "app", hash: "h", rateLimit: nil, createdAt: 1))
            let record = UploadRecord(
                id: "u1", tokenID: "t1", length: 1_000, metadata: "filename Y2xpcC5tcDQ=",
                filename: Array("clip.mp4".utf8),
                createdAt: 2, updatedAt: 2, expiresAt: 100)
            try await store.createUpload(record)
            try await store.createUpload(
                UploadRecord(
                    id: "u2", tokenID: "t1", length: 5, metadata: "", filename: [0xc3],
                    createdAt: 2, updatedAt: 2, expiresAt: 50))
            #expect(try await store.upload(id: "u1") == record)
            #expect(try await store.advanceUpload(id: "u1", from: 0, to: 400, expiresAt: 200, now: 3))
            #expect(
                try await store.advanceUpload(id: "u1", from: 0, to: 500, expiresAt: 200, now: 3) == false,
                "a racing PATCH loses")
            #expect(try await store.upload(id: "u1")?.received == 400)
            #expect(try await store.expiredUploads(now: 150).map(\.id) == ["u2"])
            try await store.deleteUpload(id: "u2")
            #expect(try await store.upload(id: "u2") == nil)
            #expect(try await store.advanceUpload(id: "u1", from: 400, to: 1_000, expiresAt: 200, now: 4))
            try await store.assignUploadJob(id: "u1", jobID: "job1", now: 5)
            try await store.assignUploadJob(id: "u1", jobID: "other", now: 5)
            #expect(try await store.upload(id: "u1")?.jobID == "job1", "the first job id chosen is kept")
            try await store.finishUpload(
                id: "u1", jobID: "job1", sourceName: Array("clip.mp4".utf8), bytes: 1_000, post: PostFacts(), now: 6)
            try await store.finishUpload(
                id: "u1", jobID: "job1", sourceName: Array("clip.mp4".utf8), bytes: 1_000, post: PostFacts(), now: 7)
            let job = try #require(try await store.job(id: "job1"))
            #expect(job.state == .queued && job.owner == nil && job.sourceName == Array("clip.mp4".utf8))
            #expect(try await store.upload(id: "u1")?.finishedAt == 6)
            #expect(try await store.claimNextJob(owner: "w", now: 8, leaseMilliseconds: 1_000)?.id == "job1")
        }
    }

    /// Each column reads back as written, a file name that is not UTF-8 too (on PostgreSQL, a bytea both ways).
    @Test(arguments: CatalogEngine.allCases)
    func anUploadAdvancesExpiresAndBecomesAQueuedJob(engine: CatalogEngine) async throws {
        try await engine.withStore { store in
            try await store.createToken(
                UploadToken(id: "t1", name: "alice", hash: "hash-a", rateLimit: nil, createdAt: 1))
            let name: [UInt8] = Array("clip".utf8) + [0xFF, 0x00]
            let upload = UploadRecord(
                id: "u1", tokenID: "t1", length: 100, metadata: "filename Y2xpcA==", filename: name,
                createdAt: 1, updatedAt: 1, expiresAt: 10)
            try await store.createUpload(upload)
            #expect(try await store.upload(id: "u1") == upload)
            #expect(try await store.expiredUploads(now: 10).map(\.id) == ["u1"])

            #expect(try await store.advanceUpload(id: "u1", from: 0, to: 60, expiresAt: 20, now: 5))
            #expect(
                try await store.advanceUpload(id: "u1", from: 0, to: 70, expiresAt: 20, now: 6) == false,
                "the offset moved")
            #expect(try await store.expiredUploads(now: 10).isEmpty)

            try await store.assignUploadJob(id: "u1", jobID: "j1", now: 7)
            try await store.assignUploadJob(id: "u1", jobID: "j2", now: 8)
            #expect(try await store.upload(id: "u1")?.jobID == "j1", "the first job id chosen is kept")
            try await store.finishUpload(id: "u1", jobID: "j1", sourceName: name, bytes: 100, post: PostFacts(), now: 9)
            try await store.finishUpload(id: "u1", jobID: "j1", sourceName: [], bytes: 0, post: PostFacts(), now: 12)
            let job = try #require(try await store.job(id: "j1"))
            #expect(
                job.state == .queued && job.owner == nil && job.sourceName == name && job.epoch == 0
                    && job.kind == .unknown)
            #expect(try await store.upload(id: "u1")?.finishedAt == 9)

            try await store.deleteUpload(id: "u1")
            #expect(try await store.upload(id: "u1") == nil)
        }
    }
}
