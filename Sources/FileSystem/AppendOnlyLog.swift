#if canImport(Glibc)
internal import Glibc
#endif

/// Lines appended to a file that several processes write at once: each line is one `write` on an `O_APPEND`
/// descriptor, so lines of up to PIPE_BUF bytes never interleave.
package enum AppendOnlyLog {
    /// Appends `line` and a newline to `path`, creating it (0644) when missing.
    package static func append(_ line: String, to path: String) throws(FileSystemError) {
        let descriptor = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o644)
        guard descriptor >= 0 else { throw FileSystemError("open", path) }
        var failure: FileSystemError?
        do throws(FileSystemError) {
            try AtomicFile.writeAll(Array((line + "\n").utf8), to: descriptor, path: path)
        } catch {
            failure = error
        }
        if close(descriptor) != 0, failure == nil { failure = FileSystemError("close", path) }
        if let failure { throw failure }
    }
}
