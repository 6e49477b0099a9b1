internal import GRDBSQLite

/// One run of an INSERT whose statement GRDB prepared and keeps (`Statement.sqliteStatement`): bind each parameter
/// (of every row, for a multi-row INSERT), then `run()`. GRDB's own arguments box every value in an existential first,
/// which cost more than half as much as SQLite's insert itself (docs/quirks.md). Borrows the statement; GRDB finalizes
/// it.
package struct SQLiteInsert: ~Copyable {
    let handle: OpaquePointer

    /// Clears the statement's previous run.
    package init(borrowing handle: OpaquePointer) {
        sqlite3_reset(handle)  // its result repeats the previous step's error, already reported there
        self.handle = handle
    }

    package func bind(_ position: Int32, _ value: Int64?) throws(SQLiteError) {
        try check(value.map { sqlite3_bind_int64(handle, position, $0) } ?? sqlite3_bind_null(handle, position))
    }

    package func bind(_ position: Int32, _ value: Int?) throws(SQLiteError) {
        try bind(position, value.map(Int64.init))
    }

    package func bind(_ position: Int32, _ value: Double?) throws(SQLiteError) {
        try check(value.map { sqlite3_bind_double(handle, position, $0) } ?? sqlite3_bind_null(handle, position))
    }

    package func bind(_ position: Int32, _ value: String?) throws(SQLiteError) {
        guard let value else { return try check(sqlite3_bind_null(handle, position)) }
        try check(sqlite3_bind_text(handle, position, value, Int32(value.utf8.count), SQLITE_TRANSIENT))
    }

    /// Inserts the row, and leaves the statement reset so it holds nothing between runs.
    package consuming func run() throws(SQLiteError) {
        let code = sqlite3_step(handle)
        guard code == SQLITE_DONE else {
            let error = SQLiteError("sqlite3_step", code: code, connection: sqlite3_db_handle(handle))
            sqlite3_reset(handle)
            throw error
        }
        sqlite3_reset(handle)
    }

    private func check(_ code: Int32) throws(SQLiteError) {
        guard code == SQLITE_OK else {
            throw SQLiteError("sqlite3_bind", code: code, connection: sqlite3_db_handle(handle))
        }
    }
}
