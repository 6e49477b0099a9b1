#if canImport(Glibc)
internal import Glibc
#endif

/// Diagnostics to file descriptor 2. Foundation's `FileHandle.write` traps when the write fails, and stderr is often
/// a file: on a full disk a log line would kill the process. Here a failed write is dropped instead.
package enum StandardError {
    package static func write(_ bytes: some Collection<UInt8>) {
        _ = try? AtomicFile.writeAll(bytes, to: 2, path: "stderr")
    }

    package static func write(_ text: String) { write(Array(text.utf8)) }
}
