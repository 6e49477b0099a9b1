internal import CFFmpeg
internal import Foundation

/// SHA-256 with libavutil's `AVSHA` (already linked; no crypto package needed). The worker uses it to recognise a
/// byte-identical re-upload.
public final class SHA256 {
    private let context: OpaquePointer

    public init() throws {
        guard let context = av_sha_alloc() else { throw AVError(function: "av_sha_alloc", message: "out of memory") }
        self.context = context
        try check(av_sha_init(context, 256), "av_sha_init")
    }

    deinit { av_free(UnsafeMutableRawPointer(context)) }

    public func update(_ bytes: UnsafeRawBufferPointer) {
        guard let base = bytes.baseAddress, bytes.count > 0 else { return }
        av_sha_update(context, base.assumingMemoryBound(to: UInt8.self), bytes.count)
    }

    /// The digest as lowercase hex. The context is spent afterwards.
    public func finish() -> String {
        var digest = [UInt8](repeating: 0, count: 32)
        av_sha_final(context, &digest)
        return digest.map { String(format: "%02x", $0) }.joined()
    }

    /// The digest of a whole file, read in 1 MiB blocks; a symlink is refused, not followed.
    public static func file(path: String) throws -> String {
        let descriptor = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)
        guard descriptor >= 0 else { throw AVError(function: "open", message: "\(path): \(String(cString: strerror(errno)))") }
        defer { close(descriptor) }
        let hash = try SHA256()
        var buffer = [UInt8](repeating: 0, count: 1 << 20)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw AVError(function: "read", message: String(cString: strerror(errno)))
            }
            if count == 0 { break }
            buffer.withUnsafeBytes { hash.update(UnsafeRawBufferPointer(rebasing: $0.prefix(count))) }
        }
        return hash.finish()
    }
}
