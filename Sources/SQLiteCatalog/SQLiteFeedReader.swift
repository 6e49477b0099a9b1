internal import Catalog
internal import LibSQLite
internal import Synchronization

/// The feed's two hot reads — the catalog generation, and a page of stored records with the generation — on a
/// read-only connection of their own. Through GRDB each read cost about 16 µs of pool, queue and schema-check work
/// around a 2 µs statement, the largest part of answering a kept page. Readers never wait for the writer in WAL
/// mode; the short busy timeout only bounds a rare recovery, which then fails the request as `busy`.
final class SQLiteFeedReader: Sendable {
    private final class Statements {
        let connection: SQLiteConnection
        let generation: SQLiteStatement
        let page: SQLiteStatement
        /// The WAL index header, when the catalog is in WAL mode (see `generation()`).
        let walIndex: SQLiteWALIndex?
        /// The header as it was just before `knownGeneration` was read.
        var knownHeader: [UInt8] = []
        var knownGeneration: Int64?
        var header: [UInt8] = []

        init(path: String) throws(SQLiteError) {
            connection = try SQLiteConnection(readOnlyPath: path, busyTimeoutMilliseconds: 100)
            generation = try connection.prepare(SQLiteCatalogEngine.generationSQL)
            page = try connection.prepare(SQLiteCatalogEngine.pageSQL)
            let mode = try connection.prepare("PRAGMA journal_mode")
            let isWAL = try mode.step() && mode.text(0) == "wal"
            walIndex = isWAL ? WALIndexHeader.map(connection) : nil
        }
    }

    /// One stored row of a page: `record` is nil when an edit outside Reel cleared it.
    struct Row {
        let publishedAt: Int64
        let id: String
        let record: [UInt8]?
    }

    private let statements: Mutex<Statements>

    /// Whether generation checks use the WAL index header (false outside WAL mode), for tests.
    var checksWALIndex: Bool { statements.withLock { $0.walIndex != nil } }

    init(path: String) throws(SQLiteError) {
        statements = Mutex(try Statements(path: path))
    }

    /// The catalog generation as of now. In WAL mode a commit by any connection, in any process, rewrites the WAL
    /// index header in shared memory before it returns (SQLite increments its change counter on every commit), so
    /// when the header is byte-for-byte what it was just before the last read, no commit has happened since and that
    /// read still holds: the check is a 96-byte copy instead of a read transaction and its four `fcntl` locks.
    /// Any difference, even a torn copy mid-commit, reads the row again.
    func generation() throws(SQLiteError) -> Int64 {
        do {
            return try statements.withLock { statements -> Int64 in
                if let walIndex = statements.walIndex {
                    walIndex.copy(WALIndexHeader.length, into: &statements.header)
                    if let known = statements.knownGeneration, statements.header == statements.knownHeader {
                        return known
                    }
                    swap(&statements.header, &statements.knownHeader)
                    statements.knownGeneration = nil
                }
                let statement = statements.generation
                try statement.reset()
                defer { try? statement.reset() }  // ends the read snapshot now, not at the next call
                let generation = try statement.step() ? statement.int64(0) : 0
                if statements.walIndex != nil { statements.knownGeneration = generation }
                return generation
            }
        } catch {
            throw Self.sqliteError(error)
        }
    }

    /// Up to `count` rows after (publishedAt, id), newest first, and the generation from the same statement (nil
    /// when there are no rows).
    func rows(
        count: Int, before publishedAt: Int64, _ id: String
    ) throws(SQLiteError) -> (rows: [Row], generation: Int64?) {
        do {
            return try statements.withLock { statements -> (rows: [Row], generation: Int64?) in
                let page = statements.page
                try page.reset(binding: [.integer(publishedAt), .text(id), .integer(Int64(count))])
                defer { try? page.reset() }
                var rows: [Row] = []
                rows.reserveCapacity(count)
                var generation: Int64?
                while try page.step() {
                    rows.append(Row(publishedAt: page.int64(0), id: page.text(1) ?? "", record: page.blob(2)))
                    generation = page.int64(3)
                }
                return (rows, generation)
            }
        } catch {
            throw Self.sqliteError(error)
        }
    }

    private static func sqliteError(_ error: any Error) -> SQLiteError {
        guard let error = error as? SQLiteError else {
            preconditionFailure("only SQLiteError is thrown here: \(error)")
        }
        return error
    }
}
