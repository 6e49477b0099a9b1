import Foundation
import GRDB
import MediaFixtures
import Testing

@testable import Catalog
@testable import SQLiteCatalog

/// The catalog generation moves with every change to the feed, and only with those, on every connection.
@Suite(.timeLimit(.minutes(5))) struct CatalogGenerationTests {
    let directory: TemporaryDirectory
    let store: SQLiteCatalogEngine
    init() throws {
        directory = try TemporaryDirectory()
        store = SQLiteCatalogEngine(database: try SQLiteCatalogDatabase(path: directory.file("catalog.sqlite")))
    }

    @Test func seedingAndPublishingAVideoMoveTheGeneration() async throws {
        let start = try await store.generationOnBothPaths()
        try await store.seed(count: 3)
        let seeded = try await store.generationOnBothPaths()
        #expect(seeded != start)
        try await store.insertJob(
            id: "j1", sourceName: Array("a.mp4".utf8), bytes: 1, owner: "w", now: 1, leaseMilliseconds: 60_000)
        try await store.publish(SyntheticVideos.video(7), lease: JobLease(id: "j1", epoch: 0, owner: "w"), now: 2)
        #expect(try await store.generationOnBothPaths() != seeded)
    }

    @Test func jobUpdatesAndImagesLeaveTheGenerationAlone() async throws {
        try await store.seed(count: 1)
        let before = try await store.generationOnBothPaths()
        try await store.insertJob(
            id: "j1", sourceName: Array("a.png".utf8), bytes: 1, owner: "w", now: 1, leaseMilliseconds: 60_000)
        try await store.release(JobLease(id: "j1", epoch: 0, owner: "w"), now: 1)
        let claimed = try #require(try await store.claimNextJob(owner: "w", now: 2, leaseMilliseconds: 60_000))
        try await store.setJobProgress(claimed.lease, progress: 0.5, now: 2)
        #expect(try await store.renewLease(claimed.lease, until: 90_000, now: 2))
        try await store.publish(
            PublishedImage(
                id: "i1", createdAt: 3, width: 1, height: 1, bytes: 1, path: "images/i1.webp",
                contentHash: "h"), lease: claimed.lease, now: 3)
        #expect(try await store.generationOnBothPaths() == before)
    }

    @Test func editsOutsideReelMoveTheGenerationThroughTriggers() async throws {
        try await store.seed(count: 2)
        let before = try await store.generationOnBothPaths()
        try await store.database.pool.write { db in try db.execute(sql: "DELETE FROM videos WHERE id = 'v000000001'") }
        let deleted = try await store.generationOnBothPaths()
        #expect(deleted != before)
        try await store.database.pool.write { db in try db.execute(sql: "UPDATE renditions SET segments = 5") }
        #expect(try await store.generationOnBothPaths() != deleted)
    }

    @Test func anotherConnectionPoolSeesTheNewGenerationAndVideoAtOnce() async throws {
        try await store.seed(count: 5)
        let before = try await store.pageWithGeneration(limit: 10, after: nil)
        let other = SQLiteCatalogEngine(database: try SQLiteCatalogDatabase(path: directory.file("catalog.sqlite")))
        try await other.seed(count: 1, startingAt: 5)
        let after = try await store.pageWithGeneration(limit: 10, after: nil)
        #expect(after.generation != before.generation)
        #expect(try await store.generationOnBothPaths() == after.generation)
        #expect(after.page.items.first?.id == "v000000005")
    }

    @Test func aCommitOnAnotherConnectionIsSeenThroughTheWALIndexHeader() async throws {
        #expect(store.database.feedReader.checksWALIndex)
        try await store.seed(count: 1)
        let first = try await store.generationOnBothPaths()
        #expect(try await store.generationOnBothPaths() == first)  // unchanged header: the kept value
        let other = SQLiteCatalogEngine(database: try SQLiteCatalogDatabase(path: directory.file("catalog.sqlite")))
        for round in 0..<20 {
            try await other.seed(count: 1, startingAt: 10 + round)
            let next = try await store.generationOnBothPaths()
            #expect(next == (try await other.generationOnBothPaths()))
            #expect(
                try await store.pageOnBothPaths(limit: 1, after: nil).items.first?.id
                    == String(format: "v%09d", 10 + round))
        }
        // A checkpoint that restarts the WAL changes the header too, and the generation stays right.
        let before = try await store.generationOnBothPaths()
        try await other.database.pool.writeWithoutTransaction { db in
            try db.execute(sql: "PRAGMA wal_checkpoint(TRUNCATE)")
        }
        #expect(try await store.generationOnBothPaths() == before)
        try await other.seed(count: 1, startingAt: 99)
        #expect(try await store.generationOnBothPaths() != before)
    }

    /// The shortcut reads SQLite's own mapping of the WAL index. A descriptor of Reel's own on the `-shm`, once closed,
    /// dropped every POSIX lock this process held on it (SQLite's DMS lock among them: fcntl locks belong to the
    /// process), so the next process to open the catalog truncated and rebuilt the WAL index under this one's
    /// connections: a Bus error in a full test run, where `reel` child processes open the test's catalogs.
    @Test func theWALIndexShortcutLeavesSQLitesLocksOnTheSharedMemoryInPlace() async throws {
        try await store.seed(count: 1)
        let generation = try await store.generationOnBothPaths()
        #expect(store.database.feedReader.checksWALIndex)
        let shm = directory.file("catalog.sqlite-shm")
        // SQLite holds a shared lock on the DMS byte of the -shm while any of its connections here use the index.
        #expect(!(try Self.locks(heldOn: shm)).isEmpty, "this process holds no lock on \(shm)")
        let script =
            "import sqlite3, sys; print(sqlite3.connect(sys.argv[1]).execute('SELECT count(*) FROM videos').fetchone()[0])"
        let other = try await ChildProcess.run(["/usr/bin/python3", "-c", script, directory.file("catalog.sqlite")])
        #expect(other.status == 0 && other.stdout == "1\n", "\(other.stderr)")
        #expect(!(try Self.locks(heldOn: shm)).isEmpty, "after another process opened the catalog")
        #expect(try await store.generationOnBothPaths() == generation)
    }

    /// The lines of /proc/locks for `path`'s inode held by this process. Read to its end: `String(contentsOfFile:)`
    /// stops at 4095 bytes of a /proc file, and a parallel run's locks fill more.
    static func locks(heldOn path: String) throws -> [Substring] {
        let inode = try #require(try FileManager.default.attributesOfItem(atPath: path)[.systemFileNumber] as? Int)
        let table = try FileHandle(forReadingFrom: URL(fileURLWithPath: "/proc/locks")).readToEnd() ?? Data()
        return String(decoding: table, as: UTF8.self).split(separator: "\n").filter { line in
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            return fields.contains("\(getpid())") && fields.contains { $0.hasSuffix(":\(inode)") }
        }
    }

    @Test func aFreshCatalogDoesNotStartAtZero() async throws {
        // A random start keeps a recreated catalog from repeating the ETags of the one it replaced.
        let other = SQLiteCatalogEngine(database: try SQLiteCatalogDatabase(path: directory.file("other.sqlite")))
        #expect(try await store.generationOnBothPaths() != other.generationOnBothPaths())
    }
}
