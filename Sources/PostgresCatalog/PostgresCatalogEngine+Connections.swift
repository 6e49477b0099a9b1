internal import Catalog
internal import Logging
internal import PostgresNIO

/// Every call reaches the server through `withConnection`: a pooled connection within `connectionWait`, the body, and
/// every failure classified as a `CatalogError` that names the operation. The wait is bounded whatever PostgresNIO
/// does (`PostgresClient.boundedLease`).
extension PostgresCatalogEngine {
    /// Runs `body` on a connection of `pool` (the store's pool by default). - Throws: `CatalogError`, `.unavailable`
    /// when no connection came within `connectionWait` or the connection was lost under a body that never ended.
    func withConnection<T: Sendable>(
        _ operation: String, on pool: PostgresClient? = nil,
        _ body: @escaping @Sendable (PostgresConnection) async throws -> T
    ) async throws(CatalogError) -> T {
        let described = "\(operation) at \(location)"
        let outcome = await (pool ?? client).boundedLease(
            described, connectionWait: connectionWait, logger: logger, body)
        switch outcome.result {
        case let .success(value): return value
        case let .failure(error): throw Self.classify(error, operation: described, beforeConnection: !outcome.leased)
        }
    }

    /// `body` in one transaction: committed when it returns, rolled back when it throws (its `CatalogError` arrives
    /// as it was thrown).
    func transaction<T: Sendable>(
        _ operation: String,
        _ body: @escaping @Sendable (PostgresConnection) async throws -> T
    ) async throws(CatalogError) -> T {
        let logger = self.logger
        return try await withConnection(operation) { connection in
            try await connection.withTransaction(logger: logger) { connection in try await body(connection) }
        }
    }

    /// `body` in one read-only snapshot, as SQLite's reads are: every statement sees the same commits.
    func snapshot<T: Sendable>(
        _ operation: String,
        _ body: @escaping @Sendable (PostgresConnection) async throws -> T
    ) async throws(CatalogError) -> T {
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
