#if canImport(Glibc)
internal import Glibc
#endif

/// What `stat(2)` or `lstat(2)` says about one path: the facts a server needs to decide whether to serve a file and
/// to build a validator for it, without going through Foundation's untyped attribute dictionary.
///
/// Taking a status blocks on the disk: async code should do it on a thread pool, not on the concurrency pool.
package struct FileStatus: Sendable, Equatable {
    /// The same kinds a directory listing reports.
    package typealias Kind = DirectoryEntry.Kind

    package let kind: Kind
    package let size: Int64
    /// Modification time in nanoseconds since the epoch.
    package let modified: Int64
    package let inode: UInt64
    /// The device holding the inode: inode numbers are unique only within one device.
    package let device: UInt64
    /// The permission bits (`st_mode & 07777`), e.g. 0o600.
    package let permissions: UInt32

    package init(kind: Kind, size: Int64, modified: Int64, inode: UInt64, device: UInt64, permissions: UInt32 = 0) {
        self.kind = kind
        self.size = size
        self.modified = modified
        self.inode = inode
        self.device = device
        self.permissions = permissions
    }

    /// The status of `path`; with `followingSymlinks: false` a symlink reports itself (`lstat`), not its target.
    /// - Throws: `FileSystemError` naming `stat` or `lstat`, `path` and errno (`isNotFound` for a missing path or a
    ///   dangling symlink that was followed).
    package init(path: String, followingSymlinks: Bool) throws(FileSystemError) {
        var info = stat()
        let call = followingSymlinks ? "stat" : "lstat"
        let result = followingSymlinks ? stat(path, &info) : lstat(path, &info)
        guard result == 0 else { throw FileSystemError(call, path) }
        self.init(
            kind: Kind(mode: info.st_mode),
            size: Int64(info.st_size),
            modified: Self.nanoseconds(info.st_mtim),
            inode: UInt64(info.st_ino),
            device: UInt64(info.st_dev),
            permissions: UInt32(info.st_mode) & 0o7777
        )
    }

    /// Saturating: a file's mtime may lie past 2262 (ext4 goes to 2446, and anyone may `touch -d`), beyond what
    /// Int64 nanoseconds hold, and reading a status must not trap.
    private static func nanoseconds(_ time: timespec) -> Int64 {
        let (scaled, overflow) = Int64(time.tv_sec).multipliedReportingOverflow(by: 1_000_000_000)
        guard !overflow else { return time.tv_sec < 0 ? .min : .max }
        let (sum, overflowAgain) = scaled.addingReportingOverflow(Int64(time.tv_nsec))
        return overflowAgain ? .max : sum
    }
}
