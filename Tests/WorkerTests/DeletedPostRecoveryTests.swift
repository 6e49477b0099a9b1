import Catalog
import FileSystem
import Foundation
import SQLiteCatalog
import Testing

@testable import Worker

/// A deleted post (issue 65) is never queued again: an upload of it the worker finds without a job, in its scratch
/// space or as an original in the library, is removed, as its deletion meant.
@Suite(.timeLimit(.minutes(10))) struct DeletedPostRecoveryTests {
    @Test func anUploadOfADeletedPostFoundWithoutAJobIsRemovedNotQueued() async throws {
        let rig = try WorkerRig()
        let id = "0123456789abcdef0123"
        try await DeletedPostFixtures.queue(rig.store, id)
        #expect(try await rig.store.removePost(id: id, reason: "creator", now: 2) != .notFound)
        try Directory.create(rig.library + "/.incoming")
        try Data("the upload".utf8).write(to: URL(fileURLWithPath: rig.library + "/.incoming/" + id))
        let worker = try rig.makeWorker(rig.configuration(ScriptedJobLauncher { _, _ in .publishVideo }))
        try await rig.runUntilIdle(worker)
        #expect(try await rig.jobs().isEmpty, "queued again")
        #expect(rig.entries(".incoming").isEmpty)
    }

    @Test func anOriginalOfADeletedPostIsRemovedByTheSweep() async throws {
        let rig = try WorkerRig()
        let id = "0123456789abcdef0124"
        try await DeletedPostFixtures.queue(rig.store, id)
        _ = try await rig.store.removePost(id: id, reason: "admin", now: 2)
        try Directory.create(rig.library + "/originals")
        try Data("the original".utf8).write(to: URL(fileURLWithPath: rig.library + "/originals/" + id))
        let worker = try rig.makeWorker(
            rig.configuration(ScriptedJobLauncher { _, _ in .publishVideo }) {
                $0.scratchIsShared = false
            })
        try await worker.sweepLibrary(graceSeconds: -60)
        #expect(try await rig.jobs().isEmpty, "queued again")
        #expect(rig.entries("originals").isEmpty)
    }
}

enum DeletedPostFixtures {
    /// A queued job for an upload taken from the inbox.
    static func queue(_ store: SQLiteCatalogEngine, _ id: String) async throws {
        try await store.insertJob(
            id: id, sourceName: Array("clip.mp4".utf8), bytes: 10, owner: "intake", now: 1, leaseMilliseconds: 60_000)
        try await store.release(JobLease(id: id, epoch: 0, owner: "intake"), now: 1)
    }
}
