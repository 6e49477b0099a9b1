internal import FeedStore
internal import Logging
internal import PostgresNIO
internal import Synchronization

/// Every call reaches the server through `withConnection`: a pooled connection within `connectionWait`, the body, and
/// every failure classified as a `CatalogError` that names the operation.
extension PostgresFeedStore {
    /// What ended the wait for a connection first.
    private enum Outcome<T: Sendable>: Sendable {
        case value(T)
        case deadline
    }

    /// Set once the pool handed over a connection: from then on the body runs as long as it needs.
    private final class LeaseFlag: Sendable {
        private let leased = Atomic(false)
        func set() { leased.store(true, ordering: .relaxed) }
        var isSet: Bool { leased.load(ordering: .relaxed) }
    }

    /// The pool had no connection for us in time: the server is down or unreachable, or every connection is busy.
    struct ConnectionTimeout: Error, CustomStringConvertible {
        let timeout: Duration
        var description: String { "no connection to the server within \(timeout) (server down or unreachable, or the pool exhausted)" }
    }

    /// Runs `body` on a connection of `pool` (the store's pool by default). - Throws: `CatalogError`, `.unavailable`
    /// when no connection came within `connectionWait`.
    func withConnection<T: Sendable>(_ operation: String, on pool: PostgresClient? = nil,
                                     _ body: @escaping @Sendable (PostgresConnection) async throws -> T) async throws(CatalogError) -> T {
        let pool = pool ?? client
        let leased = LeaseFlag()
        do {
            return try await withThrowingTaskGroup(of: Outcome<T>.self) { group in
                group.addTask {
                    .value(try await pool.withConnection { connection in
                        leased.set()
                        return try await body(connection)
                    })
                }
                group.addTask {
                    try await Task.sleep(for: self.connectionWait)
                    return .deadline
                }
                while let outcome = try await group.next() {
                    switch outcome {
                    case let .value(value):
                        group.cancelAll()
                        return value
                    case .deadline:
                        guard leased.isSet else {
                            group.cancelAll()
                            throw ConnectionTimeout(timeout: self.connectionWait)
                        }
                    }
                }
                throw CancellationError()
            }
        } catch {
            throw Self.classify(error, operation: "\(operation) at \(location)", beforeConnection: !leased.isSet)
        }
    }

    /// `body` in one transaction: committed when it returns, rolled back when it throws (its `CatalogError` arrives
    /// as it was thrown).
    func transaction<T: Sendable>(_ operation: String,
                                  _ body: @escaping @Sendable (PostgresConnection) async throws -> T) async throws(CatalogError) -> T {
        let logger = self.logger
        return try await withConnection(operation) { connection in
            try await connection.withTransaction(logger: logger) { connection in try await body(connection) }
        }
    }

    /// `body` in one read-only snapshot, as SQLite's reads are: every statement sees the same commits.
    func snapshot<T: Sendable>(_ operation: String,
                               _ body: @escaping @Sendable (PostgresConnection) async throws -> T) async throws(CatalogError) -> T {
        let logger = self.logger
        return try await transaction(operation) { connection in
            try await connection.query("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY", logger: logger)
            return try await body(connection)
        }
    }

    /// One statement's rows.
    func rows(_ operation: String, _ query: PostgresQuery) async throws(CatalogError) -> [PostgresRandomAccessRow] {
        let logger = self.logger
        return try await withConnection(operation) { connection in try await connection.rows(query, logger: logger) }
    }
}

extension PostgresConnection {
    /// Every row of `query`, decoded by the caller by column name.
    func rows(_ query: PostgresQuery, logger: Logger) async throws -> [PostgresRandomAccessRow] {
        var rows: [PostgresRandomAccessRow] = []
        for try await row in try await self.query(query, logger: logger) { rows.append(row.makeRandomAccess()) }
        return rows
    }

    /// Runs a statement and returns how many rows it returned (`RETURNING` makes that the rows it changed).
    @discardableResult
    func count(_ query: PostgresQuery, logger: Logger) async throws -> Int {
        var count = 0
        for try await _ in try await self.query(query, logger: logger) { count += 1 }
        return count
    }
}
