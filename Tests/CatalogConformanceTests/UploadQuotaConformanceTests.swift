import Catalog
import Foundation
import SQLiteCatalog
import Testing

/// Per-token upload quotas (issue 62) on every engine: open uploads, bytes in flight and uploads per hour are counted
/// in the creation's own transaction, a refused creation writes nothing, and `setTokenLimits` keeps a token's own.
@Suite(.timeLimit(.minutes(10))) struct UploadQuotaConformanceTests {
    static func upload(_ id: String, token: String = "t1", length: Int64 = 100, at now: Int64) -> UploadRecord {
        UploadRecord(
            id: id, tokenID: token, length: length, metadata: "", filename: Array("clip.mp4".utf8), createdAt: now,
            updatedAt: now, expiresAt: now + 86_400_000)
    }

    @Test(arguments: CatalogEngine.allCases)
    func openUploadsAreCountedPerTokenAndAFinishedOneFreesItsSlot(engine: CatalogEngine) async throws {
        try await engine.withStore { store in
            try await store.createToken(UploadToken(id: "t1", name: "app", hash: "h1", rateLimit: nil, createdAt: 1))
            try await store.createToken(UploadToken(id: "t2", name: "web", hash: "h2", rateLimit: nil, createdAt: 1))
            let quota = UploadQuota(concurrentUploads: 2)
            #expect(try await store.createUpload(Self.upload("u1", at: 10), within: quota) == nil)
            #expect(try await store.createUpload(Self.upload("u2", at: 11), within: quota) == nil)
            let refusal = try #require(try await store.createUpload(Self.upload("u3", at: 12), within: quota))
            #expect(refusal.limit == .concurrentUploads && refusal.allowed == 2 && refusal.used == 2)
            #expect(refusal.retryAfterSeconds == UploadQuota.openRetryCapSeconds)
            #expect(try await store.upload(id: "u3") == nil, "a refused creation writes nothing")
            #expect(
                try await store.createUpload(Self.upload("v1", token: "t2", at: 12), within: quota) == nil,
                "another token has slots of its own")
            // A finished upload (it became a job) no longer counts, nor does a terminated one.
            #expect(try await store.advanceUpload(id: "u1", from: 0, to: 100, expiresAt: 86_400_100, now: 13))
            try await store.assignUploadJob(id: "u1", jobID: "j1", now: 14)
            try await store.finishUpload(
                id: "u1", jobID: "j1", sourceName: [0x61], bytes: 100, post: PostFacts(), now: 14)
            #expect(try await store.createUpload(Self.upload("u3", at: 15), within: quota) == nil)
            try await store.deleteUpload(id: "u2")
            #expect(try await store.createUpload(Self.upload("u4", at: 16), within: quota) == nil)
            #expect(try await store.createUpload(Self.upload("u5", at: 17), within: quota)?.limit == .concurrentUploads)
        }
    }

    @Test(arguments: CatalogEngine.allCases)
    func bytesInFlightAreTheDeclaredLengthsOfUnfinishedUploads(engine: CatalogEngine) async throws {
        try await engine.withStore { store in
            try await store.createToken(UploadToken(id: "t1", name: "app", hash: "h1", rateLimit: nil, createdAt: 1))
            let quota = UploadQuota(bytesInFlight: 1_000)
            #expect(try await store.createUpload(Self.upload("u1", length: 600, at: 10), within: quota) == nil)
            let over = try #require(
                try await store.createUpload(Self.upload("u2", length: 500, at: 11), within: quota))
            #expect(over.limit == .bytesInFlight && over.used == 1_100 && over.canEverFit)
            #expect(try await store.createUpload(Self.upload("u2", length: 400, at: 12), within: quota) == nil)
            let never = try #require(
                try await store.createUpload(Self.upload("u3", length: 1_001, at: 13), within: quota))
            #expect(!never.canEverFit, "an upload larger than the whole limit can never fit")
            // An expired upload holds nothing, even before the sweep removes it.
            let late = Int64(86_400_000 + 20)
            #expect(try await store.createUpload(Self.upload("u4", length: 1_000, at: late), within: quota) == nil)
        }
    }

    @Test(arguments: CatalogEngine.allCases)
    func anHourWindowCountsStartedUploadsAndOpensAnewAfterAnHour(engine: CatalogEngine) async throws {
        try await engine.withStore { store in
            try await store.createToken(UploadToken(id: "t1", name: "app", hash: "h1", rateLimit: nil, createdAt: 1))
            let quota = UploadQuota(uploadsPerHour: 2)
            let start: Int64 = 1_000_000
            #expect(try await store.createUpload(Self.upload("u1", at: start), within: quota) == nil)
            try await store.deleteUpload(id: "u1")  // terminating an upload does not give its start back
            #expect(try await store.createUpload(Self.upload("u2", at: start + 1_000), within: quota) == nil)
            let refusal = try #require(
                try await store.createUpload(Self.upload("u3", at: start + 600_000), within: quota))
            #expect(refusal.limit == .uploadsPerHour && refusal.used == 2)
            #expect(refusal.retryAfterSeconds == 3_000, "the window opened at the first upload, 3,000 s before it ends")
            #expect(
                try await store.createUpload(Self.upload("u3", at: start + 3_600_000), within: quota) == nil,
                "a new window opens an hour after the last one did")
            #expect(try await store.createUpload(Self.upload("u4", at: start + 3_600_001), within: quota) == nil)
            #expect(
                try await store.createUpload(Self.upload("u5", at: start + 3_600_002), within: quota)?.limit
                    == .uploadsPerHour)
        }
    }

    @Test(arguments: CatalogEngine.allCases)
    func aTokensOwnLimitsAreStoredSetAndListed(engine: CatalogEngine) async throws {
        try await engine.withStore { store in
            let own = UploadQuota(concurrentUploads: 3, bytesInFlight: 5_000_000_000, uploadsPerHour: nil)
            try await store.createToken(
                UploadToken(id: "t1", name: "app", hash: "h1", rateLimit: 2, createdAt: 1, quota: own))
            #expect(try await store.token(hash: "h1")?.quota == own)
            let changed = UploadQuota(concurrentUploads: nil, bytesInFlight: 7, uploadsPerHour: 40)
            let set = try await store.setTokenLimits("app", rateLimit: nil, quota: changed)
            #expect(set?.quota == changed && set?.rateLimit == nil)
            #expect(try await store.tokens().first?.quota == changed)
            #expect(try await store.token(hash: "h1")?.rateLimit == nil)
            #expect(try await store.setTokenLimits("t1", rateLimit: 4, quota: own)?.quota == own, "by id too")
            #expect(try await store.setTokenLimits("nobody", rateLimit: nil, quota: own) == nil)
        }
    }
}
