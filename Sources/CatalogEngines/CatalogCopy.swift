package import Catalog
internal import GRDB
package import Logging
internal import NIOCore
internal import PostgresCatalog
package import PostgresNIO
package import SQLiteCatalog

/// `reel db copy`: an existing SQLite catalog into an empty PostgreSQL one, so a library can move to many hosts.
///
/// The source is read from one snapshot (a consistent catalog even while a worker writes), table by table in primary
/// key order, `batchRows` rows per INSERT. The target is written in one transaction: the copy lands whole or not at
/// all, its row counts are checked against the source's before it commits, and the catalog generation carries over
/// (the same catalog, so ETags stay valid). Library paths are relative, so the same library folder keeps working.
package struct CatalogCopy: Sendable {
    /// One table's progress, reported after each batch.
    package struct Progress: Sendable {
        package let table: String
        package let copied: Int
        package let total: Int
    }

    /// The tables in `CatalogSchema.current`'s order, which their foreign keys accept, each with its primary key (the
    /// keyset the batches follow). The generation is not copied row by row: it carries over as one value.
    static let tables: [(name: String, key: [String])] = CatalogSchema.current.tables
        .filter { $0.name != "catalog_generation" }.map { ($0.name, $0.primaryKey) }

    package let source: SQLiteCatalogDatabase
    package let batchRows: Int

    package init(source: SQLiteCatalogDatabase, batchRows: Int = 1_000) {
        self.source = source
        self.batchRows = max(1, batchRows)
    }

    /// A copy of the SQLite catalog at `sourcePath`, opened (and migrated) here, so a caller names no engine type.
    /// - Throws: the SQLite engine's error when the file cannot be opened or migrated.
    package init(sourcePath: String, batchRows: Int = 1_000) throws {
        self.init(source: try SQLiteCatalogDatabase(path: sourcePath), batchRows: batchRows)
    }

    /// Copies everything into the PostgreSQL catalog at `location`, over a pool of two connections that runs as long
    /// as the copy, and returns each table's row count. The pool logs at `poolLogLevel` (its connection chatter stays
    /// out of a command's output).
    /// - Throws: `CatalogCopyError` naming the table and what went wrong; the target is then unchanged.
    package func run(
        into location: PostgresLocation, logger: Logger, poolLogLevel: Logger.Level = .warning,
        progress: @escaping @Sendable (Progress) -> Void = { _ in }
    ) async throws(CatalogCopyError) -> [String: Int] {
        var poolLogger = logger
        poolLogger.logLevel = poolLogLevel
        let client = PostgresEndpoint.client(location, connections: 2, logger: poolLogger)
        let result = await withTaskGroup(of: Void.self) { group -> Result<[String: Int], CatalogCopyError> in
            group.addTask { await client.run() }
            defer { group.cancelAll() }
            do throws(CatalogCopyError) {
                return .success(try await run(into: client, logger: logger, progress: progress))
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }

    /// Copies everything and returns each table's row count.
    /// - Throws: `CatalogCopyError` naming the table and what went wrong; the target is then unchanged.
    package func run(
        into client: PostgresClient, logger: Logger,
        progress: @escaping @Sendable (Progress) -> Void = { _ in }
    ) async throws(CatalogCopyError) -> [String: Int] {
        // Synchronous: GRDB has no async `makeSnapshot()`. It opens one connection and begins a WAL read (no wait on
        // a writer), once per `reel db copy`; every read of the snapshot below is async, on GRDB's queue.
        let snapshot: DatabaseSnapshot
        do { snapshot = try source.pool.makeSnapshot() } catch {
            throw CatalogCopyError("cannot read the SQLite catalog: \(error)")
        }
        do {
            try await PostgresMigrator().migrate(client, logger: logger)
        } catch {
            throw CatalogCopyError("cannot migrate the PostgreSQL catalog: \(String(reflecting: error))")
        }
        do {
            // Bounded like every catalog call (`boundedLease`): a server that goes away mid-copy fails it, never hangs it.
            return try await client.boundedTransaction("copy the catalog", connectionWait: .seconds(30), logger: logger)
            { connection in
                try await Self.refuseNonEmptyTarget(connection, logger: logger)
                // The rendered items are copied as they are: the triggers that clear them (and bump the generation)
                // on edits outside Reel must not fire for the copy. Reel's own user owns the tables; DDL is
                // transactional, so the triggers are back on whatever happens.
                for table in ["videos", "renditions"] {
                    try await connection.query(
                        PostgresQuery(unsafeSQL: "ALTER TABLE \(table) DISABLE TRIGGER USER"), logger: logger)
                }
                var counts: [String: Int] = [:]
                for table in Self.tables {
                    counts[table.name] = try await copy(
                        table.name, key: table.key, from: snapshot, into: connection, logger: logger,
                        progress: progress)
                }
                for table in ["videos", "renditions"] {
                    try await connection.query(
                        PostgresQuery(unsafeSQL: "ALTER TABLE \(table) ENABLE TRIGGER USER"), logger: logger)
                }
                // The events keep their ids (the roll-up's order), the rankings their numbers (the cursors that
                // name them) and webhook deliveries theirs (a lease names its row), so each sequence moves past them.
                try await connection.query(
                    """
                    SELECT setval(pg_get_serial_sequence('viewer_events', 'id'), coalesce(max(id), 0) + 1, false)
                    FROM viewer_events
                    """, logger: logger)
                try await connection.query(
                    """
                    SELECT setval(pg_get_serial_sequence('feed_rankings', 'ranking'), coalesce(max(ranking), 0) + 1, false)
                    FROM feed_rankings
                    """, logger: logger)
                try await connection.query(
                    """
                    SELECT setval(pg_get_serial_sequence('webhook_deliveries', 'id'), coalesce(max(id), 0) + 1, false)
                    FROM webhook_deliveries
                    """, logger: logger)
                let generation = try await snapshot.read { db in
                    try Int64.fetchOne(db, sql: "SELECT value FROM catalog_generation WHERE id = 1")
                }
                if let generation {
                    try await connection.query(
                        "UPDATE catalog_generation SET value = \(generation) WHERE id = 1", logger: logger)
                }
                for (table, count) in counts {
                    let copied = try await Self.count(table, connection, logger: logger)
                    guard copied == count else {
                        throw CatalogCopyError(
                            "\(table): \(count) rows in the SQLite catalog but \(copied) in PostgreSQL after the copy; nothing was committed"
                        )
                    }
                }
                return counts
            }
        } catch let error as CatalogCopyError {
            throw error
        } catch let error as PostgresTransactionError {
            // The transaction rolled back cleanly around a refusal of ours: say the refusal itself.
            if let refusal = error.closureError as? CatalogCopyError, error.rollbackError == nil { throw refusal }
            throw CatalogCopyError("the copy failed and was rolled back: \(String(reflecting: error))")
        } catch {
            throw CatalogCopyError("the copy failed and was rolled back: \(String(reflecting: error))")
        }
    }

    static func refuseNonEmptyTarget(_ connection: PostgresConnection, logger: Logger) async throws {
        var found: [String] = []
        for table in tables.map(\.name) {
            let rows = try await count(table, connection, logger: logger)
            if rows > 0 { found.append("\(table) has \(rows) rows") }
        }
        guard found.isEmpty else {
            throw CatalogCopyError(
                "the PostgreSQL catalog is not empty (\(found.joined(separator: ", "))); copy into a new database")
        }
    }

    static func count(_ table: String, _ connection: PostgresConnection, logger: Logger) async throws -> Int {
        var count = 0
        for try await value in try await connection.query(
            PostgresQuery(unsafeSQL: "SELECT count(*) FROM \(table)"), logger: logger
        )
        .decode(Int.self) { count = value }
        return count
    }

    /// One table, batch by batch in primary-key order; the columns are those both engines have.
    func copy(
        _ table: String, key: [String], from snapshot: DatabaseSnapshot, into connection: PostgresConnection,
        logger: Logger,
        progress: @Sendable (Progress) -> Void
    ) async throws -> Int {
        var targetTypes: [String: String] = [:]
        let typeQuery: PostgresQuery = """
            SELECT column_name, data_type FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = \(table)
            """
        for try await (name, type) in try await connection.query(typeQuery, logger: logger).decode(
            (String, String).self)
        {
            targetTypes[name] = type
        }
        let known = targetTypes
        let (columns, total) = try await snapshot.read { db in
            (
                try Row.fetchAll(db, sql: "PRAGMA table_info(\(table))").map { $0["name"] as String }.filter {
                    known[$0] != nil
                },
                try Int.fetchOne(db, sql: "SELECT count(*) FROM \(table)") ?? 0
            )
        }
        guard !columns.isEmpty else {
            throw CatalogCopyError("\(table): no columns in common between the two catalogs")
        }
        let keyIndexes = key.compactMap { columns.firstIndex(of: $0) }
        guard keyIndexes.count == key.count else {
            throw CatalogCopyError("\(table): its key \(key) is missing from the copy")
        }
        let list = columns.joined(separator: ", ")
        let keyList = key.joined(separator: ", ")
        let perStatement = min(batchRows, 60_000 / columns.count)  // PostgreSQL takes at most 65,535 parameters
        var after: [DatabaseValue]?
        var copied = 0
        while true {
            let start = after
            // Values, not `Row`s: a `Row` is not Sendable, and with it `read` would resolve to GRDB's synchronous overload
            // and wait on the concurrency pool.
            let rows: [[DatabaseValue]] = try await snapshot.read { db in
                let batch: [Row]
                if let after = start {
                    let marks = Array(repeating: "?", count: key.count).joined(separator: ", ")
                    batch = try Row.fetchAll(
                        db,
                        sql: "SELECT \(list) FROM \(table) WHERE (\(keyList)) > (\(marks)) ORDER BY \(keyList) LIMIT ?",
                        arguments: StatementArguments(after + [perStatement.databaseValue]))
                } else {
                    batch = try Row.fetchAll(
                        db, sql: "SELECT \(list) FROM \(table) ORDER BY \(keyList) LIMIT ?", arguments: [perStatement])
                }
                return batch.map { Array($0.databaseValues) }
            }
            guard let last = rows.last else { break }
            var bindings = PostgresBindings(capacity: rows.count * columns.count)
            var tuples: [String] = []
            tuples.reserveCapacity(rows.count)
            for row in rows {
                var marks: [String] = []
                for (index, column) in columns.enumerated() {
                    try Self.bind(row[index], into: &bindings, table: table, column: column)
                    marks.append("$\(bindings.count)::\(targetTypes[column] ?? "text")")
                }
                tuples.append("(" + marks.joined(separator: ", ") + ")")
            }
            try await connection.query(
                PostgresQuery(
                    unsafeSQL: "INSERT INTO \(table) (\(list)) VALUES " + tuples.joined(separator: ", "),
                    binds: bindings), logger: logger)
            copied += rows.count
            progress(Progress(table: table, copied: copied, total: total))
            after = keyIndexes.map { last[$0] }
        }
        if total == 0 { progress(Progress(table: table, copied: 0, total: 0)) }
        return copied
    }

    static func bind(
        _ value: DatabaseValue, into bindings: inout PostgresBindings, table: String, column: String
    ) throws {
        switch value.storage {
        case .null: bindings.appendNull()
        case let .int64(number): bindings.append(number)
        case let .double(number): try bindings.append(number)
        case let .string(text): try bindings.append(text)
        case let .blob(data): try bindings.append(ByteBuffer(bytes: data))
        }
    }
}

/// Why a copy stopped; the PostgreSQL catalog is then as it was.
package struct CatalogCopyError: Error, CustomStringConvertible {
    package let description: String
    init(_ description: String) { self.description = description }
}
