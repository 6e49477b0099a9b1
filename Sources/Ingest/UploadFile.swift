internal import Foundation
public import MediaModel

#if canImport(Glibc)
import Glibc
#endif

/// An upload opened the safe way: no symlinks, no FIFOs or devices, regular files only.
///
/// libav reads it through `/proc/self/fd/N`, so it sees exactly the inode checked here even if the name is swapped.
public final class UploadFile: @unchecked Sendable {
    public let path: String
    public let size: Int64
    let descriptor: Int32

    /// - Throws: `Rejection` with `not_regular_file`, `empty_file` or `unreadable`.
    public init(path: String) throws(Rejection) {
        self.path = path
        var linkStatus = stat()
        guard lstat(path, &linkStatus) == 0 else {
            throw Rejection(.unreadable, "cannot read the file: \(String(cString: strerror(errno)))", path: path)
        }
        guard linkStatus.st_mode & S_IFMT == S_IFREG else {
            throw Rejection(.notRegularFile, "not a regular file (\(UploadFile.describeType(linkStatus.st_mode)))", path: path)
        }
        let fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else {
            let code = errno
            if code == ELOOP { throw Rejection(.notRegularFile, "not a regular file (symbolic link)", path: path) }
            throw Rejection(.unreadable, "cannot open the file: \(String(cString: strerror(code)))", path: path)
        }
        var status = stat()
        guard fstat(fd, &status) == 0, status.st_mode & S_IFMT == S_IFREG else {
            close(fd)
            throw Rejection(.notRegularFile, "not a regular file (\(UploadFile.describeType(status.st_mode)))", path: path)
        }
        // Back to blocking reads now that we know it is a regular file.
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK)
        descriptor = fd
        size = Int64(status.st_size)
        guard size > 0 else { throw Rejection(.emptyFile, "the file is empty (0 bytes)", path: path) }
    }

    deinit { close(descriptor) }

    /// The name libav opens: the already-checked descriptor, never the upload's own name.
    var libavPath: String { "/proc/self/fd/\(descriptor)" }

    /// Reads up to `count` bytes from `offset`.
    public func read(count: Int, at offset: Int64 = 0) throws(Rejection) -> [UInt8] {
        var buffer = [UInt8](repeating: 0, count: count)
        var total = 0
        while total < count {
            let n = buffer.withUnsafeMutableBytes { raw in
                pread(descriptor, raw.baseAddress! + total, count - total, off_t(offset) + off_t(total))
            }
            if n < 0 {
                if errno == EINTR { continue }
                throw Rejection(.unreadable, "read failed: \(String(cString: strerror(errno)))", path: path)
            }
            if n == 0 { break }
            total += n
        }
        buffer.removeSubrange(total...)
        return buffer
    }

    static func describeType(_ mode: mode_t) -> String {
        switch mode & S_IFMT {
        case S_IFLNK: "symbolic link"
        case S_IFDIR: "directory"
        case S_IFIFO: "FIFO"
        case S_IFSOCK: "socket"
        case S_IFCHR: "character device"
        case S_IFBLK: "block device"
        default: "special file"
        }
    }
}
