import Catalog
import GRDB
import MediaFixtures
import SQLiteCatalog
import Testing

/// A commit has reached the disk when it returns: the catalog's writer runs with `synchronous=FULL` although GRDB's
/// WAL pool sets NORMAL after the configuration's own setup (PowerLossTests cuts the power to show what that loses).
@Suite(.timeLimit(.minutes(2))) struct DurableCommitTests {
    @Test func theCatalogWriterCommitsWithSynchronousFull() async throws {
        let directory = try TemporaryDirectory()
        let database = try SQLiteCatalogDatabase(path: directory.file("catalog.sqlite"))
        let writer = try await database.pool.barrierWriteWithoutTransaction { db in
            try Int.fetchOne(db, sql: "PRAGMA synchronous")
        }
        #expect(writer == 2, "PRAGMA synchronous is \(writer.map(String.init) ?? "nil"); 2 is FULL")
        let mode = try await database.pool.read { db in try String.fetchOne(db, sql: "PRAGMA journal_mode") }
        #expect(mode == "wal")
    }
}
