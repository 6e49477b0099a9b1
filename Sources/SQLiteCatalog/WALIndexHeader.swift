internal import Catalog
internal import LibSQLite

/// SQLite's WAL index header, the first 96 bytes of the `-shm` file: two copies of a 48-byte header that every
/// commit rewrites (https://www.sqlite.org/walformat.html §2.1). Read through SQLite's own mapping of the file
/// (`SQLiteWALIndex`), and only used when it looks like the documented format (version 3007000, initialised), so an
/// unexpected file turns the shortcut off rather than misleading it.
enum WALIndexHeader {
    static let length = 96
    static let version: UInt32 = 3_007_000

    /// The WAL index of `connection` (in WAL mode, after a first read), or nil when the shortcut cannot be used.
    static func map(_ connection: SQLiteConnection) -> SQLiteWALIndex? {
        // The shortcut is an optimisation: without it every generation check is a read transaction.
        guard let index = try? SQLiteWALIndex(connection) else { return nil }
        var bytes: [UInt8] = []
        index.copy(length, into: &bytes)
        let version = bytes.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: 0, as: UInt32.self) }
        let isInitialised = bytes[12] == 1
        return version == Self.version && isInitialised ? index : nil
    }
}
