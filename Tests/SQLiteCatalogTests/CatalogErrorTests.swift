import Catalog
import Foundation
import GRDB
import MediaFixtures
import MediaModel
import SQLiteCatalog
import Testing

/// Catalog failures arrive classified from SQLite's result codes, so the worker decides by case.
@Suite(.timeLimit(.minutes(5))) struct CatalogErrorTests {
    let directory: TemporaryDirectory
    let store: SQLiteCatalogEngine
    init() throws {
        directory = try TemporaryDirectory()
        store = SQLiteCatalogEngine(
            database: try SQLiteCatalogDatabase(path: directory.file("catalog.sqlite"), busyTimeout: 0.05))
    }

    func video(_ id: String, hash: String) -> PublishedVideo {
        PublishedVideo(
            id: id, createdAt: 1, publishedAt: 2, durationMilliseconds: 1000, width: 360, height: 640,
            contentHash: hash,
            source: nil, masterPath: "videos/\(id)/master.m3u8", posterJPEGPath: "videos/\(id)/poster.jpg",
            posterWebPPath: "videos/\(id)/poster.webp", renditions: [])
    }

    @Test func theSameBytesPublishedTwiceAreADuplicate() async throws {
        try await store.insertJob(
            id: "j1", sourceName: Array("a".utf8), bytes: 1, owner: "o", now: 1, leaseMilliseconds: 60_000)
        try await store.insertJob(
            id: "j2", sourceName: Array("b".utf8), bytes: 1, owner: "o", now: 1, leaseMilliseconds: 60_000)
        try await store.publish(video("m1", hash: "same"), lease: JobLease(id: "j1", epoch: 0, owner: "o"), now: 3)
        let error = await #expect(throws: CatalogError.self) {
            try await store.publish(video("m2", hash: "same"), lease: JobLease(id: "j2", epoch: 0, owner: "o"), now: 4)
        }
        #expect(error?.kind == .duplicate)
        #expect(error?.isTransient == false)
        // The transaction rolled back: the second job is untouched and no second video exists.
        #expect(try await store.job(id: "j2")?.state == .queued)
        #expect(try await store.videoCount() == 1)
        #expect(try await store.publishedMedia(contentHash: "same") == PublishedMedia(kind: .video, id: "m1"))
    }

    @Test func aWriteBlockedByAnotherConnectionIsBusy() async throws {
        // Another connection holds the write lock across the store's attempt (an open transaction between two accesses).
        var configuration = Configuration()
        configuration.allowsUnsafeTransactions = true
        let other = try DatabaseQueue(path: directory.file("catalog.sqlite"), configuration: configuration)
        try await other.writeWithoutTransaction { db in try db.execute(sql: "BEGIN IMMEDIATE") }
        let error = await #expect(throws: CatalogError.self) {
            try await store.insertJob(
                id: "j1", sourceName: [1], bytes: 1, owner: "o", now: 1, leaseMilliseconds: 60_000)
        }
        #expect(error?.kind == .busy && error?.isTransient == true, "\(String(describing: error))")
        try await other.writeWithoutTransaction { db in try db.execute(sql: "ROLLBACK") }
        try await store.insertJob(id: "j1", sourceName: [1], bytes: 1, owner: "o", now: 1, leaseMilliseconds: 60_000)
    }

    @Test func aCancelledTasksAccessIsUnavailable() async throws {
        let task = Task { [store] () async -> CatalogError? in
            try? await Task.sleep(for: .seconds(60))  // ends at the cancellation
            do throws(CatalogError) { _ = try await store.videoCount() } catch { return error }
            return nil
        }
        task.cancel()
        let error = await task.value
        #expect(error?.kind == .unavailable && error?.isTransient == true, "\(String(describing: error))")
    }

    @Test func jobReasonsRoundTripAsTypedCases() async throws {
        try await store.insertJob(id: "j1", sourceName: [1], bytes: 1, owner: "o", now: 1, leaseMilliseconds: 60_000)
        try await store.release(JobLease(id: "j1", epoch: 0, owner: "o"), now: 1)
        _ = try await store.claimNextJob(owner: "w", now: 2, leaseMilliseconds: 60_000)
        try await store.requeue(
            JobLease(id: "j1", epoch: 1, owner: "w"), notBefore: 0,
            failure: ProcessingFailure(.diskFull, "full", path: "x"), refundAttempt: true, now: 3)
        let requeued = try #require(try await store.job(id: "j1"))
        #expect(requeued.state == .queued && requeued.attempts == 0 && requeued.reason == .failed(.diskFull))
        _ = try await store.claimNextJob(owner: "w", now: 4, leaseMilliseconds: 60_000)
        try await store.finishJob(
            JobLease(id: "j1", epoch: 2, owner: "w"), as: .rejected(Rejection(.tooLarge, "too big", path: "x")),
            kind: nil, now: 5)
        let finished = try #require(try await store.job(id: "j1"))
        #expect(
            finished.state == .rejected && finished.reason == .rejected(.tooLarge) && finished.lastError == "too big")
    }
}
