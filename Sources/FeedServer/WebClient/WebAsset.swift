internal import Hummingbird

/// One file of the web client, with a strong ETag from its bytes: they change only with a new binary.
struct WebAsset: Sendable {
    let body: ByteBuffer
    let contentType: String
    let etag: String

    init(bytes: [UInt8], contentType: String) {
        body = ByteBuffer(bytes: bytes)
        self.contentType = contentType
        // FNV-1a: a validator, not a security boundary.
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes {
            hash ^= UInt64(byte)
            hash = hash &* 0x100_0000_01b3
        }
        etag = "\"web-\(String(hash, radix: 16))-\(bytes.count)\""
    }
}
