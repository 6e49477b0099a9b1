internal import Foundation

#if canImport(Glibc)
internal import Glibc
#endif

/// An exclusive `flock` held for the life of the object (and released by the kernel when the process dies,
/// even by SIGKILL), so other processes can tell a live owner from a dead one.
package final class FileLock: Sendable {
    package let path: String
    private let descriptor: Int32

    /// Takes the lock, or returns nil when another process holds it.
    package init?(path: String) throws(FileSystemError) {
        let descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard descriptor >= 0 else { throw FileSystemError("open", path) }
        guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
            let code = errno
            close(descriptor)
            if code == EWOULDBLOCK { return nil }
            throw FileSystemError("flock", path, code: code)
        }
        self.path = path
        self.descriptor = descriptor
    }

    deinit { close(descriptor) }
}
