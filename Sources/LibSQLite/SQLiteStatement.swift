internal import GRDBSQLite

/// One prepared statement of a `SQLiteConnection`, reused: bind, step through the rows, reset.
package final class SQLiteStatement {
    let handle: OpaquePointer
    /// Kept so the connection outlives its statements.
    let connection: SQLiteConnection

    init(_ handle: OpaquePointer, connection: SQLiteConnection) {
        self.handle = handle
        self.connection = connection
    }

    deinit { sqlite3_finalize(handle) }

    /// Clears the previous run and binds `values` (Int64 or String) to the parameters in order.
    package func reset(binding values: [SQLiteValue] = []) throws(SQLiteError) {
        sqlite3_reset(handle)  // its result repeats the previous step's error, already reported there
        for (index, value) in values.enumerated() {
            let position = Int32(index + 1)
            let code: Int32 =
                switch value {
                case .integer(let number): sqlite3_bind_int64(handle, position, number)
                case .text(let text): sqlite3_bind_text(handle, position, text, -1, SQLITE_TRANSIENT)
                }
            guard code == SQLITE_OK else {
                throw SQLiteError("sqlite3_bind", code: code, connection: connection.handle)
            }
        }
    }

    /// Moves to the next row: false when there are no more.
    package func step() throws(SQLiteError) -> Bool {
        switch sqlite3_step(handle) {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        case let code: throw SQLiteError("sqlite3_step", code: code, connection: connection.handle)
        }
    }

    package func int64(_ column: Int32) -> Int64 { sqlite3_column_int64(handle, column) }

    /// The column's text, or nil for NULL.
    package func text(_ column: Int32) -> String? {
        guard let bytes = sqlite3_column_text(handle, column) else { return nil }
        let count = Int(sqlite3_column_bytes(handle, column))
        return String(decoding: UnsafeBufferPointer(start: bytes, count: count), as: UTF8.self)
    }

    /// The column's bytes, or nil for NULL (an empty BLOB is `[]`).
    package func blob(_ column: Int32) -> [UInt8]? {
        guard sqlite3_column_type(handle, column) != SQLITE_NULL else { return nil }
        let count = Int(sqlite3_column_bytes(handle, column))
        guard count > 0, let bytes = sqlite3_column_blob(handle, column) else { return [] }
        return Array(UnsafeRawBufferPointer(start: bytes, count: count))
    }
}

package enum SQLiteValue: Sendable {
    case integer(Int64)
    case text(String)
}

/// SQLite's "copy this string now" destructor, which the C macro spells as a cast of -1.
let SQLITE_TRANSIENT = unsafeBitCast(OpaquePointer(bitPattern: -1), to: sqlite3_destructor_type.self)
