#if canImport(Glibc)
internal import Glibc
#endif

/// An absolute path with every symlink, `.` and `..` resolved by the kernel (`realpath(3)`), so that a prefix check
/// on it says where the file really is: a symlink inside a folder cannot pass for a file in that folder.
///
/// Resolving blocks on the disk: async code should do it on a thread pool, not on the concurrency pool.
package struct CanonicalPath: Sendable, Hashable, CustomStringConvertible {
    package let path: String

    /// Resolves `path`, which must exist (every component of it).
    /// - Throws: `FileSystemError` naming `realpath`, `path` and errno: `isNotFound` for a missing component or a
    ///   dangling symlink, `ELOOP` for a symlink cycle, `ENOTDIR` when a middle component is a file.
    package init(resolving path: String) throws(FileSystemError) {
        guard let resolved = realpath(path, nil) else { throw FileSystemError("realpath", path) }
        defer { free(resolved) }
        self.path = String(cString: resolved)
    }

    /// The part of this path below `root`, or nil when this path is not strictly inside it. Compared byte by byte:
    /// `String.hasPrefix` treats canonically equivalent spellings as equal, the file system does not.
    package func relativePath(under root: CanonicalPath) -> String? {
        let prefix = Array((root.path == "/" ? "/" : root.path + "/").utf8)
        let bytes = Array(path.utf8)
        guard bytes.count > prefix.count, bytes.starts(with: prefix) else { return nil }
        return String(decoding: bytes[prefix.count...], as: UTF8.self)
    }

    package var description: String { path }
}
