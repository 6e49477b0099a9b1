internal import FileSystem

/// SQLite's WAL index header, the first 96 bytes of the `-shm` file: two copies of a 48-byte header that every
/// commit rewrites (https://www.sqlite.org/walformat.html §2.1). Only mapped when it looks like the documented
/// format (version 3007000, initialised), so an unexpected file turns the shortcut off rather than misleading it.
enum WALIndexHeader {
    static let length = 96
    static let version: UInt32 = 3_007_000

    static func map(databasePath: String) -> SharedMapping? {
        guard let mapping = try? SharedMapping(readOnlyPath: databasePath + "-shm", length: length) else { return nil }
        var bytes: [UInt8] = []
        mapping.copy(into: &bytes)
        let version = bytes.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: 0, as: UInt32.self) }
        let isInitialised = bytes[12] == 1
        return version == Self.version && isInitialised ? mapping : nil
    }
}
