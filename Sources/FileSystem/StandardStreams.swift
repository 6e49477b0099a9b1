#if canImport(Glibc)
internal import Glibc
#endif

/// This process's own standard streams.
package enum StandardStreams {
    /// Points stdout and stderr at files (created or truncated, mode 0600), as a spawned job's would be.
    /// - Throws: `FileSystemError` from `open` or `dup2`.
    package static func redirect(stdout: String, stderr: String) throws(FileSystemError) {
        for (target, path) in [(Int32(1), stdout), (2, stderr)] {
            let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
            guard descriptor >= 0 else { throw FileSystemError("open", path) }
            defer { close(descriptor) }
            guard dup2(descriptor, target) >= 0 else { throw FileSystemError("dup2", path) }
        }
    }
}
