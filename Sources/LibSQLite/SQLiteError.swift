internal import GRDBSQLite

/// A failed SQLite call: the function, SQLite's primary result code classified, and its message.
package struct SQLiteError: Error, CustomStringConvertible, Sendable {
    package enum Kind: Sendable, Equatable {
        /// Another connection held a lock past the busy timeout.
        case busy
        /// The disk or quota is full.
        case full
        /// I/O error, read-only file system, or a file that cannot be opened.
        case unavailable
        case other
    }

    package let function: String
    package let code: Int32
    package let message: String

    init(_ function: String, code: Int32, connection: OpaquePointer?) {
        self.function = function
        self.code = code
        message =
            connection.flatMap { sqlite3_errmsg($0) }.map { String(cString: $0) }
            ?? String(cString: sqlite3_errstr(code))
    }

    package var kind: Kind {
        switch code & 0xFF {
        case SQLITE_BUSY, SQLITE_LOCKED: .busy
        case SQLITE_FULL: .full
        case SQLITE_IOERR, SQLITE_READONLY, SQLITE_CANTOPEN, SQLITE_PROTOCOL, SQLITE_NOTADB, SQLITE_CORRUPT:
            .unavailable
        default: .other
        }
    }

    package var description: String { "\(function): \(message) (SQLite code \(code))" }
}
