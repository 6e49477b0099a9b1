#if canImport(Glibc)
internal import Glibc
#endif

/// A file opened the safe way for reading untrusted bytes: never through a symlink, never blocking on a FIFO or a
/// device, regular files only. Everything after `init` works on the checked descriptor, so swapping the name
/// afterwards changes nothing.
package final class ReadOnlyFile: Sendable {
    package enum OpenError: Error, Sendable, Equatable, CustomStringConvertible {
        /// The name is a symlink, directory, FIFO, socket or device (`kind` says which).
        case notRegularFile(path: String, kind: DirectoryEntry.Kind)
        case failed(FileSystemError)

        package var description: String {
            switch self {
            case let .notRegularFile(path, kind): "\(path) is a \(kind.description), not a regular file"
            case let .failed(error): error.description
            }
        }
    }

    package let path: String
    package let size: Int64
    package let descriptor: Int32

    package init(path: String) throws(OpenError) {
        var linkStatus = stat()
        guard lstat(path, &linkStatus) == 0 else { throw .failed(FileSystemError("lstat", path)) }
        guard linkStatus.st_mode & S_IFMT == S_IFREG else {
            throw .notRegularFile(path: path, kind: DirectoryEntry.Kind(mode: linkStatus.st_mode))
        }
        let descriptor = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
        guard descriptor >= 0 else {
            if errno == ELOOP { throw .notRegularFile(path: path, kind: .symlink) }
            throw .failed(FileSystemError("open", path))
        }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else {
            let failure = FileSystemError("fstat", path)
            _ = close(descriptor)
            throw .failed(failure)
        }
        guard status.st_mode & S_IFMT == S_IFREG else {
            _ = close(descriptor)
            throw .notRegularFile(path: path, kind: DirectoryEntry.Kind(mode: status.st_mode))
        }
        // Back to blocking reads now that it is known to be a regular file.
        let flags = fcntl(descriptor, F_GETFL)
        guard flags >= 0, fcntl(descriptor, F_SETFL, flags & ~O_NONBLOCK) == 0 else {
            let failure = FileSystemError("fcntl", path)
            _ = close(descriptor)
            throw .failed(failure)
        }
        self.path = path
        self.descriptor = descriptor
        size = Int64(status.st_size)
    }

    deinit { _ = close(descriptor) }

    /// A name for libraries that want a path: this descriptor, never the file's own name.
    package var descriptorPath: String { "/proc/self/fd/\(descriptor)" }

    /// Up to `count` bytes from `offset`; fewer at the end of the file.
    package func read(count: Int, at offset: Int64 = 0) throws(FileSystemError) -> [UInt8] {
        var buffer = [UInt8](repeating: 0, count: count)
        var total = 0
        while total < count {
            let n = buffer.withUnsafeMutableBytes {
                pread(descriptor, $0.baseAddress! + total, count - total, off_t(offset) + off_t(total))
            }
            if n < 0 {
                if errno == EINTR { continue }
                throw FileSystemError("pread", path)
            }
            if n == 0 { break }
            total += n
        }
        buffer.removeSubrange(total...)
        return buffer
    }

    /// Calls `body` with successive blocks of the whole file, from the start.
    package func forEachBlock(
        size blockSize: Int = 1 << 20, _ body: (UnsafeRawBufferPointer) -> Void
    ) throws(FileSystemError) {
        var buffer = [UInt8](repeating: 0, count: blockSize)
        var offset: off_t = 0
        while true {
            let n = buffer.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress!, blockSize, offset) }
            if n < 0 {
                if errno == EINTR { continue }
                throw FileSystemError("pread", path)
            }
            if n == 0 { return }
            buffer.withUnsafeBytes { body(UnsafeRawBufferPointer(rebasing: $0.prefix(n))) }
            offset += off_t(n)
        }
    }

    /// The whole of a small file (an outcome, a progress note, a preset), refused past `limit` bytes.
    package static func contents(of path: String, limit: Int = 16 << 20) throws(OpenError) -> [UInt8] {
        let file = try ReadOnlyFile(path: path)
        guard file.size <= Int64(limit) else { throw .failed(FileSystemError("read", path, code: EFBIG)) }
        do { return try file.read(count: Int(file.size)) } catch { throw .failed(error) }
    }
}
