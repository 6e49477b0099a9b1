#if canImport(Glibc)
internal import Glibc
#endif

/// Files of /proc, which report a size of 0 and are read until end of file.
enum ProcFile {
    /// - Throws: `SandboxError` from `open` or `read`.
    static func contents(of path: String) throws(SandboxError) -> [UInt8] {
        let descriptor = try check(open(path, O_RDONLY | O_CLOEXEC), "open", path: path)
        defer { close(descriptor) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 16384)
        while true {
            let got = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if got < 0 {
                if errno == EINTR { continue }
                throw SandboxError(.failed, call: "read", path: path, code: errno)
            }
            if got == 0 { return bytes }
            bytes += buffer.prefix(got)
        }
    }
}
