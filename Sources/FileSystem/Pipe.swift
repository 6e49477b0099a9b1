internal import CFileSystem

#if canImport(Glibc)
internal import Glibc
#endif

/// An anonymous pipe. Both ends are close-on-exec, so no spawned process inherits one by accident (a spawn hands
/// an end on explicitly, as a standard stream), and each end is closed when its owner goes away.
package enum Pipe {
    package final class ReadEnd: Sendable {
        package let descriptor: Int32
        init(_ descriptor: Int32) { self.descriptor = descriptor }
        deinit { close(descriptor) }

        /// Reads what is there, up to `count` bytes: empty at end of file. Blocks until something is there unless
        /// `waiting` is false, then returns nil when nothing is.
        /// - Throws: `FileSystemError` from `poll` or `read`.
        package func read(upTo count: Int = 4096, waiting: Bool) throws(FileSystemError) -> [UInt8]? {
            var ready = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            while true {
                let status = poll(&ready, 1, waiting ? -1 : 0)
                if status > 0 { break }
                if status == 0 { return nil }
                if errno != EINTR { throw FileSystemError("poll", "pipe") }
            }
            var buffer = [UInt8](repeating: 0, count: count)
            while true {
                let got = buffer.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, count) }
                if got >= 0 { return Array(buffer.prefix(got)) }
                if errno != EINTR { throw FileSystemError("read", "pipe") }
            }
        }

        /// Waits until there is something to read (or the writer has closed) or `seconds` pass; reads nothing.
        /// Returns whether it became readable; a signal ends the wait early, as a timeout.
        package func waitReadable(timeout seconds: Double) -> Bool {
            var ready = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            return poll(&ready, 1, Int32(max(0, (seconds * 1000).rounded(.up)))) > 0
        }
    }

    package final class WriteEnd: Sendable {
        package let descriptor: Int32
        init(_ descriptor: Int32) { self.descriptor = descriptor }
        deinit { close(descriptor) }

        /// Writes all of `bytes`. Writing to a pipe nobody reads fails with EPIPE (SIGPIPE must be ignored).
        /// - Throws: `FileSystemError` from `write`.
        package func write(_ bytes: [UInt8]) throws(FileSystemError) {
            try AtomicFile.writeAll(bytes, to: descriptor, path: "pipe")
        }
    }

    /// A new pipe.
    /// - Throws: `FileSystemError` from `pipe2`.
    package static func make() throws(FileSystemError) -> (read: ReadEnd, write: WriteEnd) {
        var ends: [Int32] = [-1, -1]
        guard CFileSystem_pipe(&ends) == 0 else { throw FileSystemError("pipe2", "pipe") }
        return (ReadEnd(ends[0]), WriteEnd(ends[1]))
    }
}
