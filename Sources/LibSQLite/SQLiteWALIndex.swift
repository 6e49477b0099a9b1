internal import GRDBSQLite

/// The start of a connection's WAL index (the `-shm` file) as SQLite itself maps it, through the VFS's `xShmMap`,
/// for reading a header that every commit rewrites. Reel opens no descriptor of its own on the `-shm`: closing one
/// drops every POSIX lock this process holds on the file (fcntl locks are per process, not per descriptor), SQLite's
/// DMS lock among them, and the next process to open the catalog then truncates and rebuilds the WAL index under
/// this process's live connections (a Bus error in a read of the mapping, measured in a test run).
/// The bytes stay mapped while `connection` is open (SQLite unmaps at close); this holds it.
package final class SQLiteWALIndex {
    /// SQLite maps the WAL index in regions of 32 KiB (https://www.sqlite.org/walformat.html §2.1).
    static let regionSize: Int32 = 32768

    private let connection: SQLiteConnection
    private let base: UnsafeRawPointer

    /// - Returns: nil when the database has no WAL index mapped in shared memory (not in WAL mode, an in-memory
    ///   database, or an index SQLite keeps in heap memory because the `-shm` is read-only).
    /// - Throws: `SQLiteError` naming `sqlite3_file_control` or `xShmMap` when SQLite refuses.
    package init?(_ connection: SQLiteConnection) throws(SQLiteError) {
        var file: UnsafeMutablePointer<sqlite3_file>?
        let control = sqlite3_file_control(connection.handle, "main", SQLITE_FCNTL_FILE_POINTER, &file)
        guard control == SQLITE_OK else {
            throw SQLiteError("sqlite3_file_control", code: control, connection: connection.handle)
        }
        guard let file, let methods = file.pointee.pMethods, methods.pointee.iVersion >= 2,
            let shmMap = methods.pointee.xShmMap
        else { return nil }
        var region: UnsafeMutableRawPointer?
        let mapped = shmMap(file, 0, Self.regionSize, 0, &region)
        if mapped & 0xFF == SQLITE_READONLY { return nil }  // and its extended codes: a -shm this process cannot write
        guard mapped == SQLITE_OK else { throw SQLiteError("xShmMap", code: mapped, connection: connection.handle) }
        guard let region else { return nil }
        self.connection = connection
        base = UnsafeRawPointer(region)
    }

    /// Copies the first `count` bytes (at most one region) into `bytes`, as they are at this moment.
    package func copy(_ count: Int, into bytes: inout [UInt8]) {
        precondition((0...Int(Self.regionSize)).contains(count))
        if bytes.count != count { bytes = [UInt8](repeating: 0, count: count) }
        bytes.withUnsafeMutableBytes { $0.baseAddress!.copyMemory(from: base, byteCount: count) }
    }
}
