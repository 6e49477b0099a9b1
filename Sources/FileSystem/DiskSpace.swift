#if canImport(Glibc)
internal import Glibc
#endif

/// Free space on the file system holding a path, as an unprivileged writer sees it (`f_bavail`).
package enum DiskSpace {
    package static func availableBytes(at path: String) throws(FileSystemError) -> Int64 {
        var info = statvfs()
        guard statvfs(path, &info) == 0 else { throw FileSystemError("statvfs", path) }
        return Int64(info.f_bavail) * Int64(info.f_frsize)
    }
}
