internal import Deadlines
internal import FeedStore
internal import Logging
internal import PostgresNIO
internal import Synchronization

/// Every call reaches the server through `withConnection`: a pooled connection within `connectionWait`, the body, and
/// every failure classified as a `CatalogError` that names the operation.
///
/// The caller never awaits PostgresNIO directly. The lease and the body run in a task of their own, and the caller
/// takes the first of three outcomes: the body's result, no connection within `connectionWait`, or the connection
/// closed under the body and the body still not done `lostConnectionGrace` later. PostgresNIO 1.33 drops a statement
/// written to a connection whose channel has closed (a `ROLLBACK` after the server went away, a query in the gap
/// before the pool hears of the close): its promise is never completed and its caller waits for ever, even when
/// cancelled. Such a body is cancelled and left behind, and the caller gets `.unavailable` (docs/quirks.md).
extension PostgresFeedStore {
    /// The connection the pool handed over, once it has.
    private final class Lease: Sendable {
        private let connection = Mutex<PostgresConnection?>(nil)
        func set(_ leased: PostgresConnection) { connection.withLock { $0 = leased } }
        var leased: PostgresConnection? { connection.withLock { $0 } }
    }

    /// The pool had no connection for us in time: the server is down or unreachable, or every connection is busy.
    struct ConnectionTimeout: Error, CustomStringConvertible {
        let timeout: Duration
        var description: String { "no connection to the server within \(timeout) (server down or unreachable, or the pool exhausted)" }
    }

    /// The connection closed while the body ran, and the body did not fail by itself.
    struct ConnectionLost: Error, CustomStringConvertible {
        let grace: Duration
        var description: String {
            "the connection closed under the call and it had not failed \(grace) later (a statement written after the close is never answered)"
        }
    }

    /// How long a body may still run after its connection closed: it normally fails at once with the close's error.
    static let lostConnectionGrace: Duration = .seconds(2)
    /// How often a running body's connection is looked at.
    static let closeCheckInterval: Duration = .milliseconds(500)

    /// Runs `body` on a connection of `pool` (the store's pool by default). - Throws: `CatalogError`, `.unavailable`
    /// when no connection came within `connectionWait` or the connection was lost under a body that never ended.
    func withConnection<T: Sendable>(_ operation: String, on pool: PostgresClient? = nil,
                                     _ body: @escaping @Sendable (PostgresConnection) async throws -> T) async throws(CatalogError) -> T {
        let pool = pool ?? client
        let lease = Lease()
        let outcome = OneShot<T>()
        let work = Task {
            do {
                outcome.settle(.success(try await pool.withConnection { connection in
                    lease.set(connection)
                    return try await body(connection)
                }))
            } catch {
                outcome.settle(.failure(error))
            }
        }
        let watch = Task { [connectionWait, logger, location] in
            let deadline = ContinuousClock.now + connectionWait
            while !Task.isCancelled {
                if let connection = lease.leased {
                    guard connection.isClosed else {
                        try? await Task.sleep(for: Self.closeCheckInterval)
                        continue
                    }
                    try? await Task.sleep(for: Self.lostConnectionGrace)
                    guard !Task.isCancelled, outcome.settle(.failure(ConnectionLost(grace: Self.lostConnectionGrace))) else { return }
                    work.cancel()
                    logger.warning("left a catalog call behind: its connection closed and it never ended",
                                   metadata: ["operation": "\(operation)", "catalog": "\(location)"])
                    return
                }
                guard ContinuousClock.now < deadline else {
                    if outcome.settle(.failure(ConnectionTimeout(timeout: connectionWait))) { work.cancel() }
                    return
                }
                try? await Task.sleep(for: min(Self.closeCheckInterval, deadline - ContinuousClock.now))
            }
        }
        defer { watch.cancel() }
        do {
            return try await outcome.value { work.cancel() }
        } catch {
            throw Self.classify(error, operation: "\(operation) at \(location)", beforeConnection: lease.leased == nil)
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
