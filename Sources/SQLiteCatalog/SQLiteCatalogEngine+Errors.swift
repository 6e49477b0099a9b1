internal import Catalog
internal import GRDB
internal import LibSQLite

extension SQLiteCatalogEngine {
    /// A write transaction on GRDB's writer queue, off the concurrency pool (which must never wait on SQLite's lock
    /// or its busy timeout), whose failure arrives as a `CatalogError`.
    func write<T: Sendable>(_ body: @Sendable (Database) throws -> T) async throws(CatalogError) -> T {
        do { return try await database.pool.write(body) } catch { throw Self.classify(error) }
    }

    /// A read on one of GRDB's reader queues, off the concurrency pool, whose failure arrives as a `CatalogError`.
    func read<T: Sendable>(_ body: @Sendable (Database) throws -> T) async throws(CatalogError) -> T {
        do { return try await database.pool.read(body) } catch { throw Self.classify(error) }
    }

    /// A read on the calling thread: only for the event-loop fast path (`SynchronousFeed`), never from async code.
    func readSynchronously<T>(_ body: (Database) throws -> T) throws(CatalogError) -> T {
        do { return try database.pool.read(body) } catch { throw Self.classify(error) }
    }

    static func classify(_ error: any Error) -> CatalogError {
        if let error = error as? CatalogError { return error }
        // GRDB's async access ends a cancelled task's work (shutdown): as on PostgreSQL, the catalog is unavailable.
        if error is CancellationError { return CatalogError(.unavailable, "the database access was cancelled") }
        if let error = error as? SQLiteError {
            let kind: CatalogError.Kind =
                switch error.kind {
                case .busy: .busy
                case .full: .full
                case .unavailable: .unavailable
                case .other: .other
                }
            return CatalogError(kind, error.description)
        }
        guard let error = error as? DatabaseError else { return CatalogError(.other, "\(error)") }
        let message = error.description
        if error.extendedResultCode == .SQLITE_CONSTRAINT_UNIQUE
            || error.extendedResultCode == .SQLITE_CONSTRAINT_PRIMARYKEY
        {
            return CatalogError(.duplicate, message)
        }
        switch error.resultCode {
        case .SQLITE_BUSY, .SQLITE_LOCKED: return CatalogError(.busy, message)
        case .SQLITE_FULL: return CatalogError(.full, message)
        case .SQLITE_IOERR, .SQLITE_READONLY, .SQLITE_CANTOPEN, .SQLITE_PROTOCOL:
            return CatalogError(.unavailable, message)
        default: return CatalogError(.other, message)
        }
    }
}
