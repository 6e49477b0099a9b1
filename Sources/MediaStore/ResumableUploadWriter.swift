package import NIOCore

/// One request's bytes on their way into an upload, from the acknowledged offset it was made for. Nothing appended
/// counts before `finish` returns; only then may the catalog acknowledge the new offset. Used by one request, never
/// shared.
package protocol ResumableUploadWriter: AnyObject {
    /// The acknowledged offset this writer starts at.
    var start: Int64 { get }

    /// The first `count` bytes of the upload (no more than `start`), stored by earlier requests: a resumed upload
    /// short of the bytes that tell its format.
    /// - Throws: `MediaStoreError.unsupported` past the bytes an engine can read back; `.unavailable`, `.failed`.
    func acknowledgedPrefix(_ count: Int) async throws -> [UInt8]

    /// Takes the next bytes. They may be stored at once or batched; none is durable before `finish`.
    /// - Throws: `MediaStoreError.unavailable`, `.full`, `.failed`.
    func append(_ buffer: ByteBuffer) async throws

    /// Makes every byte appended durable as the state of `offset` (`start` plus the bytes appended). `complete`
    /// says it is the upload's last byte.
    /// - Throws: `MediaStoreError.unavailable`, `.full`, `.failed`: then nothing may be acknowledged.
    func finish(at offset: Int64, complete: Bool) async throws

    /// Tidies up once the catalog acknowledged the offset `finish` made durable (S3 drops the tail object of
    /// `start`, which the new offset superseded); best effort: whatever it leaves goes with `complete` or `discard`.
    func acknowledged() async

    /// Drops what was appended (a checksum that did not match, a body past the declared length); the upload stays
    /// at `start`.
    /// - Throws: `MediaStoreError.unavailable`, `.failed`.
    func abandon() async throws
}
