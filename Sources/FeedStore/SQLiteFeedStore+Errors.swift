internal import GRDB
internal import LibSQLite

extension SQLiteFeedStore {
    /// A write transaction whose failure arrives as a `CatalogError`.
    func write<T>(_ body: (Database) throws -> T) throws(CatalogError) -> T {
        do { return try database.pool.write(body) } catch { throw Self.classify(error) }
    }

    /// A read whose failure arrives as a `CatalogError`.
    func read<T>(_ body: (Database) throws -> T) throws(CatalogError) -> T {
        do { return try database.pool.read(body) } catch { throw Self.classify(error) }
    }

    static func classify(_ error: any Error) -> CatalogError {
        if let error = error as? CatalogError { return error }
        if let error = error as? SQLiteError {
            let kind: CatalogError.Kind = switch error.kind {
            case .busy: .busy
            case .full: .full
            case .unavailable: .unavailable
            case .other: .other
            }
            return CatalogError(kind, error.description)
        }
        guard let error = error as? DatabaseError else { return CatalogError(.other, "\(error)") }
        let message = error.description
        if error.extendedResultCode == .SQLITE_CONSTRAINT_UNIQUE || error.extendedResultCode == .SQLITE_CONSTRAINT_PRIMARYKEY {
            return CatalogError(.duplicate, message)
        }
        switch error.resultCode {
        case .SQLITE_BUSY, .SQLITE_LOCKED: return CatalogError(.busy, message)
        case .SQLITE_FULL: return CatalogError(.full, message)
        case .SQLITE_IOERR, .SQLITE_READONLY, .SQLITE_CANTOPEN, .SQLITE_PROTOCOL: return CatalogError(.unavailable, message)
        default: return CatalogError(.other, message)
        }
    }
}
