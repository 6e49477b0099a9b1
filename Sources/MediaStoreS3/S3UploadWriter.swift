package import MediaStore
package import NIOCore
internal import ObjectStore

/// One request's bytes on their way to the store (`S3ResumableUploads`): each part goes up as soon as it is full;
/// `finish` writes the tail object of the new offset, which makes it durable.
final class S3UploadWriter: ResumableUploadWriter {
    let uploads: S3ResumableUploads
    let id: String
    let key: ObjectKey
    let uploadID: String
    let start: Int64
    /// The tail `start` resumed from, then the bytes not yet in a part.
    var buffer: ByteBuffer
    /// The full parts so far, in order.
    var parts: [S3Part]
    /// The parts and tail of `start`, for `abandon`.
    let initial: (buffer: ByteBuffer, parts: [S3Part])
    /// The offset `finish` made durable.
    var finished: Int64?

    init(
        uploads: S3ResumableUploads, id: String, key: ObjectKey, uploadID: String, start: Int64, buffer: ByteBuffer,
        parts: [S3Part]
    ) {
        self.uploads = uploads
        self.id = id
        self.key = key
        self.uploadID = uploadID
        self.start = start
        self.buffer = buffer
        self.parts = parts
        initial = (buffer, parts)
    }

    /// From the tail of `start`, which holds the whole upload so far while it is under one part.
    func acknowledgedPrefix(_ count: Int) async throws -> [UInt8] {
        let count = Int(min(Int64(count), start))
        guard initial.parts.isEmpty || count == 0 else {
            throw MediaStoreError.unsupported(
                operation: "read back the bytes of upload \(id) before its last part", store: uploads.name)
        }
        return initial.buffer.getBytes(at: initial.buffer.readerIndex, length: count) ?? []
    }

    func append(_ chunk: ByteBuffer) async throws {
        var chunk = chunk
        buffer.writeBuffer(&chunk)
        while buffer.readableBytes >= S3ResumableUploads.partBytes,
            let part = buffer.readSlice(length: S3ResumableUploads.partBytes)
        {
            parts.append(try await uploadPart(part))
        }
        buffer.discardReadBytes()
    }

    /// The tail object of `offset`: the bytes after the last full part and every part's entity tag. When the upload
    /// is `complete`, the bytes left are its last part, uploaded first, and the tail holds no bytes.
    func finish(at offset: Int64, complete: Bool) async throws {
        var tail = buffer
        if complete, buffer.readableBytes > 0 {
            parts.append(try await uploadPart(buffer))
            tail = ByteBuffer()
        }
        let etags = parts.map(\.etag).joined(separator: " ")
        try await uploads.mapping(key.description) {
            try await uploads.client.put(
                try uploads.tailKey(id, offset: offset), bytes: tail, contentType: "application/octet-stream",
                cacheControl: "private, no-store", metadata: [S3ResumableUploads.partsName: etags])
        }
        finished = offset
    }

    /// The tail `start` resumed from is superseded once the catalog moved on; one left behind by a crash goes with
    /// the upload's other objects.
    func acknowledged() async {
        guard start > 0, let finished, finished != start, let old = try? uploads.tailKey(id, offset: start) else {
            return
        }
        try? await uploads.client.delete(old)
    }

    /// Nothing to undo: the tail of `start` still names its parts, and a part sent since is written again by the
    /// request that resumes.
    func abandon() async throws {
        (buffer, parts) = initial
    }

    func uploadPart(_ bytes: ByteBuffer) async throws -> S3Part {
        try await uploads.mapping(key.description) {
            try await uploads.client.uploadPart(key, uploadID: uploadID, number: parts.count + 1, bytes: bytes)
        }
    }
}
