internal import LibZ
internal import NIOCore
internal import Synchronization

/// gzip for responses (Apple's HLS authoring spec 10.1 asks for compressed playlists; the feed's JSON gains the
/// same). One deflate stream, reused: setting one up allocates a quarter of a megabyte. Pages that are kept are
/// compressed once, when kept.
final class GzipEncoder: Sendable {
    private let compressor: Mutex<GzipCompressor?>

    init() {
        compressor = Mutex(try? GzipCompressor(level: 6))
    }

    /// `body` gzip-encoded, or nil when zlib failed (the caller then sends it as it is).
    func encode(_ body: ByteBuffer) -> ByteBuffer? {
        let bytes = Array(body.readableBytesView)
        let encoded: [UInt8]? = compressor.withLock { compressor in try? compressor?.compress(bytes) }
        return encoded.map { ByteBuffer(bytes: $0) }
    }
}
