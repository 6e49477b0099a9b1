internal import GRDBSQLite

/// One read-only SQLite connection, for the few reads too hot for GRDB's per-read work (a reader taken from the
/// pool, a dispatch queue hop, a schema check: eight times the cost of the read itself). Not thread-safe: the owner
/// serialises every use.
package final class SQLiteConnection {
    let handle: OpaquePointer

    /// - Parameter busyTimeoutMilliseconds: how long a read waits for a lock before `SQLiteError` busy.
    package init(readOnlyPath path: String, busyTimeoutMilliseconds: Int32) throws(SQLiteError) {
        var handle: OpaquePointer?
        let code = sqlite3_open_v2(path, &handle, SQLITE_OPEN_READONLY | SQLITE_OPEN_NOMUTEX, nil)
        guard code == SQLITE_OK, let handle else {
            let error = SQLiteError("sqlite3_open_v2", code: code, connection: handle)
            sqlite3_close_v2(handle)
            throw error
        }
        self.handle = handle
        let timeout = sqlite3_busy_timeout(handle, busyTimeoutMilliseconds)
        guard timeout == SQLITE_OK else { throw SQLiteError("sqlite3_busy_timeout", code: timeout, connection: handle) }
    }

    deinit { sqlite3_close_v2(handle) }

    package func prepare(_ sql: String) throws(SQLiteError) -> SQLiteStatement {
        var statement: OpaquePointer?
        let code = sqlite3_prepare_v3(handle, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &statement, nil)
        guard code == SQLITE_OK, let statement else {
            throw SQLiteError("sqlite3_prepare_v3", code: code, connection: handle)
        }
        return SQLiteStatement(statement, connection: self)
    }
}
