#if canImport(Glibc)
internal import Glibc
#endif

/// The first bytes of a file mapped read-only and shared, so another process's writes show without a system call.
/// For reading a small header that other processes update in place (SQLite's WAL index). Not thread-safe to copy
/// from while it is being released; the owner serialises use.
public final class SharedMapping {
    public let path: String
    public let length: Int
    private let address: UnsafeMutableRawPointer

    /// - Throws: `FileSystemError` from `open`, `fstat` or `mmap`, or `EINVAL` when the file is shorter than `length`.
    public init(readOnlyPath path: String, length: Int) throws(FileSystemError) {
        precondition(length > 0)
        let descriptor = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)
        guard descriptor >= 0 else { throw FileSystemError("open", path) }
        defer { _ = close(descriptor) }  // the mapping outlives the descriptor
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { throw FileSystemError("fstat", path) }
        guard status.st_mode & S_IFMT == S_IFREG, Int(status.st_size) >= length else {
            throw FileSystemError("fstat", path, code: EINVAL)
        }
        guard let address = mmap(nil, length, PROT_READ, MAP_SHARED, descriptor, 0), address != MAP_FAILED else {
            throw FileSystemError("mmap", path)
        }
        self.path = path
        self.length = length
        self.address = address
    }

    deinit { _ = munmap(address, length) }

    /// Copies the mapped bytes into `bytes` (resized to `length`), as they are at this moment.
    public func copy(into bytes: inout [UInt8]) {
        if bytes.count != length { bytes = [UInt8](repeating: 0, count: length) }
        bytes.withUnsafeMutableBytes { target in
            target.baseAddress!.copyMemory(from: address, byteCount: length)
        }
    }
}
