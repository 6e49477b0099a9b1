internal import CFileSystem

#if canImport(Glibc)
internal import Glibc
#endif

/// A file the server writes an upload into at known offsets: created private (0600), never through a symlink, and
/// synced before an offset is acknowledged. One descriptor per object, closed in `deinit`.
package final class WritableFile: Sendable {
    package let path: String
    let descriptor: Int32

    /// Opens `path` for writing, creating it when missing.
    package init(path: String) throws(FileSystemError) {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw FileSystemError("open", path) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else {
            let failure = FileSystemError("fstat", path)
            _ = close(descriptor)
            throw failure
        }
        guard status.st_mode & S_IFMT == S_IFREG else {
            _ = close(descriptor)
            throw FileSystemError("open", path, code: EINVAL)
        }
        self.path = path
        self.descriptor = descriptor
    }

    deinit { _ = close(descriptor) }

    package var size: Int64 {
        get throws(FileSystemError) {
            var status = stat()
            guard fstat(descriptor, &status) == 0 else { throw FileSystemError("fstat", path) }
            return Int64(status.st_size)
        }
    }

    /// Drops everything from `length` on: bytes past the last acknowledged offset are never trusted.
    package func truncate(to length: Int64) throws(FileSystemError) {
        guard ftruncate(descriptor, off_t(length)) == 0 else { throw FileSystemError("ftruncate", path) }
    }

    /// Writes all of `bytes` at `offset`.
    package func write(_ bytes: UnsafeRawBufferPointer, at offset: Int64) throws(FileSystemError) {
        guard var base = bytes.baseAddress else { return }
        var remaining = bytes.count
        var position = off_t(offset)
        while remaining > 0 {
            let written = pwrite(descriptor, base, remaining, position)
            if written < 0 {
                if errno == EINTR { continue }
                throw FileSystemError("pwrite", path)
            }
            remaining -= written
            position += off_t(written)
            base += written
        }
    }

    /// Starts writing `length` bytes at `offset` back to disk without waiting, so the `sync` that follows has
    /// little left to do (sync_file_range(SYNC_FILE_RANGE_WRITE)).
    package func startWriteback(offset: Int64, length: Int) throws(FileSystemError) {
        guard CFileSystem_startWriteback(descriptor, offset, Int64(length)) == 0 else {
            throw FileSystemError("sync_file_range", path)
        }
    }

    /// fdatasync: the bytes written so far (and the size that reaches them) survive a crash once this returns.
    package func sync() throws(FileSystemError) {
        guard fdatasync(descriptor) == 0 else { throw FileSystemError("fdatasync", path) }
    }
}
