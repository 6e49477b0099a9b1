import FeedStore
import Foundation
import Testing

/// Tokens and resumable uploads on every engine, and migrations.
@Suite(.timeLimit(.minutes(10))) struct UploadConformanceTests {
    @Test(arguments: CatalogEngine.allCases)
    func tokensAreCreatedFoundAndRevokedOnce(engine: CatalogEngine) async throws {
        try await engine.withStore { store in
            let token = UploadToken(id: "t1", name: "phone app", hash: "sha-1", rateLimit: 2.5, createdAt: 10)
            try await store.createToken(token)
            try await store.createToken(UploadToken(id: "t2", name: "web", hash: "sha-2", rateLimit: nil, createdAt: 11))
            let clash = await #expect(throws: CatalogError.self) {
                try await store.createToken(UploadToken(id: "t3", name: "web", hash: "sha-3", rateLimit: nil, createdAt: 12))
            }
            #expect(clash?.kind == .duplicate)
            #expect(try await store.tokens().map(\.name) == ["phone app", "web"])
            #expect(try await store.token(hash: "sha-1") == token)
            #expect(try await store.token(hash: "nope") == nil)
            #expect(try await store.revokeToken("web", now: 20)?.revokedAt == 20)
            #expect(try await store.revokeToken("t2", now: 30)?.revokedAt == 20, "revoking twice keeps the first time")
            #expect(try await store.revokeToken("nobody", now: 30) == nil)
            #expect(try await store.token(hash: "sha-2")?.isRevoked == true)
        }
    }

    @Test(arguments: CatalogEngine.allCases)
    func anUploadAdvancesOnlyFromItsOffsetAndBecomesAQueuedJob(engine: CatalogEngine) async throws {
        try await engine.withStore { store in
            try await store.createToken(UploadToken(id: "t1", name: "app", hash: "h", rateLimit: nil, createdAt: 1))
            let record = UploadRecord(id: "u1", tokenID: "t1", length: 1_000, metadata: "filename Y2xpcC5tcDQ=", filename: Array("clip.mp4".utf8),
                                      createdAt: 2, updatedAt: 2, expiresAt: 100)
            try await store.createUpload(record)
            try await store.createUpload(UploadRecord(id: "u2", tokenID: "t1", length: 5, metadata: "", filename: [0xc3],
                                                      createdAt: 2, updatedAt: 2, expiresAt: 50))
            #expect(try await store.upload(id: "u1") == record)
            #expect(try await store.advanceUpload(id: "u1", from: 0, to: 400, expiresAt: 200, now: 3))
            #expect(try await store.advanceUpload(id: "u1", from: 0, to: 500, expiresAt: 200, now: 3) == false, "a racing PATCH loses")
            #expect(try await store.upload(id: "u1")?.received == 400)
            #expect(try await store.expiredUploads(now: 150).map(\.id) == ["u2"])
            try await store.deleteUpload(id: "u2")
            #expect(try await store.upload(id: "u2") == nil)
            #expect(try await store.advanceUpload(id: "u1", from: 400, to: 1_000, expiresAt: 200, now: 4))
            try await store.assignUploadJob(id: "u1", jobID: "job1", now: 5)
            try await store.assignUploadJob(id: "u1", jobID: "other", now: 5)
            #expect(try await store.upload(id: "u1")?.jobID == "job1", "the first job id chosen is kept")
            try await store.finishUpload(id: "u1", jobID: "job1", sourceName: Array("clip.mp4".utf8), bytes: 1_000, now: 6)
            try await store.finishUpload(id: "u1", jobID: "job1", sourceName: Array("clip.mp4".utf8), bytes: 1_000, now: 7)
            let job = try #require(try await store.job(id: "job1"))
            #expect(job.state == .queued && job.owner == nil && job.sourceName == Array("clip.mp4".utf8))
            #expect(try await store.upload(id: "u1")?.finishedAt == 6)
            #expect(try await store.claimNextJob(owner: "w", now: 8, leaseMilliseconds: 1_000)?.id == "job1")
        }
    }

    @Test(arguments: CatalogEngine.allCases)
    func openingAMigratedCatalogAgainKeepsItsData(engine: CatalogEngine) async throws {
        try await engine.withCatalog { catalog in
            try await catalog.withStore { store in
                try await store.seed(count: 3, startingAt: 0, batch: 3)
                try await Fixtures.queue(store, "j1", now: 1)
            }
            let (videos, claimed) = try await catalog.withStore { store in
                (try await store.videoCount(), try await store.claimNextJob(owner: "w", now: 2, leaseMilliseconds: 1_000))
            }
            #expect(videos == 3)
            #expect(claimed?.epoch == 1 && claimed?.id == "j1")
        }
    }
}
