import Catalog
import Foundation
import MediaModel
import SQLiteCatalog
import Synchronization
import Testing

/// `JobQueue` on every engine: claim order, leases and their fencing, retries, verdicts and concurrent claimers.
@Suite(.timeLimit(.minutes(10))) struct JobQueueConformanceTests {
    @Test(arguments: CatalogEngine.allCases)
    func claimsTakeTheOldestDueJobAndRaiseItsEpoch(engine: CatalogEngine) async throws {
        try await engine.withStore { store in
            try await Fixtures.queue(store, "late", now: 30)
            try await Fixtures.queue(store, "early", now: 10)
            // Held from intake (not yet released): nobody may claim it.
            try await store.insertJob(
                id: "held", sourceName: [0x61], bytes: 1, owner: "intake", now: 5, leaseMilliseconds: 60_000)
            let first = try #require(try await store.claimNextJob(owner: "w1", now: 100, leaseMilliseconds: 2_000))
            #expect(first.id == "early" && first.state == .processing && first.owner == "w1")
            #expect(first.epoch == 1 && first.attempts == 1 && first.leaseExpiresAt == 2_100)
            #expect(first.sourceName == Array("early.mp4".utf8))
            let second = try #require(try await store.claimNextJob(owner: "w2", now: 101, leaseMilliseconds: 2_000))
            #expect(second.id == "late")
            #expect(try await store.claimNextJob(owner: "w3", now: 102, leaseMilliseconds: 2_000) == nil)
            #expect(Set(try await store.jobsHeld().map(\.id)) == ["early", "late", "held"])
            let counts = try await store.jobCounts()
            #expect(counts[.processing] == 2 && counts[.queued] == 1)
            #expect(try await store.jobs(state: .processing).map(\.id) == ["early", "late"])
        }
    }

    @Test(arguments: CatalogEngine.allCases)
    func aRetryWaitsForItsBackoffAndARefundedAttemptDoesNotCount(engine: CatalogEngine) async throws {
        try await engine.withStore { store in
            try await Fixtures.queue(store, "j1", now: 1)
            let job = try #require(try await store.claimNextJob(owner: "w", now: 2, leaseMilliseconds: 60_000))
            let failure = ProcessingFailure(.crashed, "the job process died", path: "/inbox/j1.mp4")
            try await store.requeue(job.lease, notBefore: 1_000, failure: failure, refundAttempt: false, now: 3)
            #expect(try await store.claimNextJob(owner: "w", now: 999, leaseMilliseconds: 60_000) == nil)
            let again = try #require(try await store.claimNextJob(owner: "w", now: 1_000, leaseMilliseconds: 60_000))
            #expect(again.attempts == 2 && again.epoch == 2 && again.reason == .failed(.crashed))
            #expect(again.lastError == "the job process died")
            try await store.requeue(again.lease, notBefore: 0, failure: nil, refundAttempt: true, now: 1_001)
            let third = try #require(try await store.claimNextJob(owner: "w", now: 1_002, leaseMilliseconds: 60_000))
            #expect(third.attempts == 2 && third.epoch == 3, "a refunded attempt is not counted; the epoch still grows")
        }
    }

    @Test(arguments: CatalogEngine.allCases)
    func aLeaseTakenOverCanNeverPublish(engine: CatalogEngine) async throws {
        try await engine.withStore { store in
            try await Fixtures.queue(store, "j1", now: 1)
            let stale = try #require(try await store.claimNextJob(owner: "a", now: 2, leaseMilliseconds: 1_000))
            #expect(try await store.renewLease(stale.lease, until: 3_000, now: 2))
            // Its lease expired: another worker re-queues it under the lease it was held by, and claims it.
            let held = try #require(try await store.jobsHeld().first)
            #expect(held.leaseExpiresAt == 3_000 && held.epoch == 1)
            try await store.requeue(held.lease, notBefore: 0, failure: nil, refundAttempt: true, now: 4_000)
            let fresh = try #require(try await store.claimNextJob(owner: "b", now: 4_001, leaseMilliseconds: 60_000))
            #expect(fresh.epoch == 2 && fresh.owner == "b")
            let before = try await store.generation()
            // Every transition under the old lease is refused and changes nothing.
            for attempt in 0..<5 {
                let error = await #expect(throws: CatalogError.self) {
                    switch attempt {
                    case 0: try await store.publish(Fixtures.video("j1", hash: "h1"), lease: stale.lease, now: 5_000)
                    case 1: try await store.publish(Fixtures.image("j1", hash: "h1"), lease: stale.lease, now: 5_000)
                    case 2: try await store.setJobProgress(stale.lease, progress: 0.9, now: 5_000)
                    case 3:
                        try await store.finishJob(
                            stale.lease, as: .failed(ProcessingFailure(.crashed, "x", path: "p")), kind: nil, now: 5_000
                        )
                    default:
                        try await store.requeue(
                            stale.lease, notBefore: 0, failure: nil, refundAttempt: false, now: 5_000)
                    }
                }
                #expect(error?.kind == .leaseLost, "\(attempt): \(String(describing: error))")
                #expect(error?.description.contains("j1") == true && error?.isTransient == false)
            }
            #expect(try await store.renewLease(stale.lease, until: 9_000, now: 5_000) == false)
            #expect(try await store.video(id: "j1") == nil)
            #expect(try await store.videoCount() == 0)
            #expect(try await store.generation() == before)
            let job = try #require(try await store.job(id: "j1"))
            #expect(job.state == .processing && job.owner == "b" && job.epoch == 2 && job.leaseExpiresAt == 64_001)
            // The new holder publishes.
            try await store.publish(Fixtures.video("j1", hash: "h1"), lease: fresh.lease, now: 6_000)
            let done = try #require(try await store.job(id: "j1"))
            #expect(done.state == .published && done.mediaID == "j1" && done.owner == nil && done.progress == 1)
            #expect(
                try await store.renewLease(fresh.lease, until: 9_000, now: 6_001) == false, "an ended job has no lease")
        }
    }

    @Test(arguments: CatalogEngine.allCases)
    func verdictsAndFactsRoundTrip(engine: CatalogEngine) async throws {
        try await engine.withStore { store in
            try await Fixtures.queue(store, "j1", now: 1)
            let job = try #require(try await store.claimNextJob(owner: "w", now: 2, leaseMilliseconds: 60_000))
            try await store.setJobFacts(job.lease, kind: .video, contentHash: "abc", now: 3)
            try await store.setJobProgress(job.lease, progress: 1.7, now: 4)
            var seen = try #require(try await store.job(id: "j1"))
            #expect(seen.kind == .video && seen.contentHash == "abc" && seen.progress == 1 && seen.updatedAt == 4)
            try await store.finishJob(
                job.lease, as: .rejected(Rejection(.tooLarge, "61 MB is over the 50 MB limit", path: "j1.mp4")),
                kind: .video, now: 5)
            seen = try #require(try await store.job(id: "j1"))
            #expect(
                seen.state == .rejected && seen.reason == .rejected(.tooLarge)
                    && seen.lastError == "61 MB is over the 50 MB limit")
            #expect(seen.owner == nil && seen.leaseExpiresAt == nil)
            // An intake that lost the race for the upload deletes its job; another holder cannot.
            try await store.insertJob(
                id: "j2", sourceName: [0xff, 0xfe], bytes: 9, owner: "me", now: 6, leaseMilliseconds: 60_000)
            #expect(try await store.job(id: "j2")?.sourceName == [0xff, 0xfe], "names are bytes, not text")
            let refused = await #expect(throws: CatalogError.self) {
                try await store.deleteJob(JobLease(id: "j2", epoch: 0, owner: "other"))
            }
            #expect(refused?.kind == .leaseLost)
            try await store.deleteJob(JobLease(id: "j2", epoch: 0, owner: "me"))
            #expect(try await store.job(id: "j2") == nil)
        }
    }

    @Test(arguments: CatalogEngine.allCases)
    func concurrentClaimersTakeEachJobExactlyOnce(engine: CatalogEngine) async throws {
        try await engine.withStore { store in
            for n in 0..<200 { try await Fixtures.queue(store, String(format: "job%03d", n), now: Int64(n)) }
            let claims = try await withThrowingTaskGroup(of: [FeedJob].self) { group in
                for worker in 0..<8 {
                    group.addTask {
                        var mine: [FeedJob] = []
                        while let job = try await store.claimNextJob(
                            owner: "w\(worker)", now: 1_000, leaseMilliseconds: 60_000)
                        {
                            mine.append(job)
                        }
                        return mine
                    }
                }
                return try await group.reduce(into: []) { $0 += $1 }
            }
            #expect(claims.count == 200)
            #expect(Set(claims.map(\.id)).count == 200)
            #expect(claims.allSatisfy { $0.epoch == 1 && $0.attempts == 1 })
            #expect(try await store.jobCounts()[.processing] == 200)
        }
    }

    @Test(arguments: CatalogEngine.allCases)
    func aQueuedJobWakesAWaiter(engine: CatalogEngine) async throws {
        try await engine.withStore { store in
            let woke = WakeFlag()
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask {
                    // SQLite cannot be told and always says "look"; PostgreSQL says so when NOTIFY arrives.
                    for _ in 0..<30 {
                        guard await store.waitForQueuedJob(upTo: 1) else { continue }
                        woke.value.withLock { $0 = true }
                        return
                    }
                }
                // Whenever the waiter is listening, a job queued now or later reaches it within its 30 waits.
                for n in 0..<20 {
                    try await Fixtures.queue(store, "j\(n)", now: Int64(n))
                    if woke.value.withLock({ $0 }) { break }
                    try await Task.sleep(for: .milliseconds(100))
                }
                try await group.waitForAll()
            }
            #expect(woke.value.withLock { $0 })
            #expect(try await store.claimNextJob(owner: "w", now: 100, leaseMilliseconds: 1_000) != nil)
        }
    }

    /// A held job's facts, progress and each way it can end read back as written, and a lost lease says why.
    @Test(arguments: CatalogEngine.allCases)
    func aHeldJobRecordsItsFactsProgressAndEnd(engine: CatalogEngine) async throws {
        try await engine.withStore { store in
            for id in ["image", "rejected", "duplicate"] {
                try await Fixtures.queue(store, id, now: 1, sourceName: Array("upload \(id).mp4".utf8) + [0xFF])
            }

            let image = try #require(try await store.claimNextJob(owner: "w", now: 10, leaseMilliseconds: 1000))
            try await store.setJobFacts(image.lease, kind: .image, contentHash: "bytes-1", now: 11)
            try await store.setJobProgress(image.lease, progress: 1.5, now: 12)
            var read = try #require(try await store.job(id: image.id))
            #expect(read.kind == .image && read.contentHash == "bytes-1" && read.progress == 1 && read.updatedAt == 12)
            try await store.setJobProgress(image.lease, progress: 0.25, now: 13)
            #expect(try await store.job(id: image.id)?.progress == 0.25)
            try await store.publish(
                PublishedImage(
                    id: "i1", createdAt: 14, width: 640, height: 480, bytes: 12_345,
                    path: "images/i1.webp", contentHash: "bytes-1"), lease: image.lease, now: 14)
            read = try #require(try await store.job(id: image.id))
            #expect(read.state == .published && read.mediaID == "i1" && read.progress == 1 && read.owner == nil)
            #expect(try await store.publishedMedia(contentHash: "bytes-1") == PublishedMedia(kind: .image, id: "i1"))
            #expect(try await store.isPublished(mediaID: "i1"))
            let lost = await #expect(throws: CatalogError.self) {
                try await store.setJobProgress(image.lease, progress: 0.5, now: 15)
            }
            #expect(lost?.kind == .leaseLost)
            #expect(
                lost?.message.contains("the job is published at epoch 1, held by nobody") == true,
                "\(String(describing: lost))")

            let rejected = try #require(try await store.claimNextJob(owner: "w", now: 20, leaseMilliseconds: 1000))
            try await store.finishJob(
                rejected.lease, as: .rejected(Rejection(.tooLarge, "4 GB is over 2 GB", path: "x")),
                kind: .video, now: 21)
            read = try #require(try await store.job(id: rejected.id))
            #expect(
                read.state == .rejected && read.reason == .rejected(.tooLarge) && read.lastError == "4 GB is over 2 GB")
            #expect(read.kind == .video && read.owner == nil)

            let duplicate = try #require(try await store.claimNextJob(owner: "w", now: 30, leaseMilliseconds: 1000))
            try await store.finishDuplicate(duplicate.lease, of: PublishedMedia(kind: .image, id: "i1"), now: 31)
            read = try #require(try await store.job(id: duplicate.id))
            #expect(
                read.state == .published && read.reason == .duplicate && read.mediaID == "i1" && read.kind == .image)
            #expect(try await store.jobCounts() == [.published: 2, .rejected: 1])
            #expect(try await store.jobs(state: .published).map(\.id).sorted() == [duplicate.id, image.id].sorted())
            #expect(try await store.jobsHeld().isEmpty)

            // A job held from intake can be deleted by its holder only.
            try await store.insertJob(
                id: "held", sourceName: [1, 2], bytes: 2, owner: "intake", now: 40, leaseMilliseconds: 100)
            let notMine = await #expect(throws: CatalogError.self) {
                try await store.deleteJob(JobLease(id: "held", epoch: 0, owner: "other"))
            }
            #expect(notMine?.kind == .leaseLost)
            try await store.deleteJob(JobLease(id: "held", epoch: 0, owner: "intake"))
            #expect(try await store.job(id: "held") == nil)
        }
    }
}

/// Whether a waiter was woken, shared between the waiting task and the test.
final class WakeFlag: Sendable {
    let value = Mutex(false)
}
