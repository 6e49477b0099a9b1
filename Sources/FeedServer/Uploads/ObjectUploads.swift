internal import MediaModel
internal import NIOCore
package import ObjectStore

/// Uploads over HTTP (tus) kept in object storage, as tusd's S3 store keeps them. The bytes go to a multipart upload
/// at the job's original key (`originals/<id>`: the upload's id becomes its job's), in parts of exactly `partBytes`
/// (S3's minimum), so the acknowledged offset says which parts are final: parts 1...offset / partBytes. Each
/// acknowledged offset has its tail object, `uploads/<id>/tail-<offset>`: the bytes after the last full part (none
/// on a part boundary), and, as metadata, the entity tags of the full parts before it. The multipart upload's id is
/// in `uploads/<id>/info`. A server that dies mid-PATCH leaves nothing acknowledged that is not in the store; a part
/// written past the catalog's offset is written again by the PATCH that resumes, and the tail of the acknowledged
/// offset names the parts to complete with (SeaweedFS lists a part uploaded twice twice, so its listing cannot).
package struct ObjectUploads: Sendable {
    package let client: S3Client
    static let partBytes = S3Client.minimumPartSize
    /// The tail object's metadata entry with the parts' entity tags, in order, separated by spaces.
    static let partsName = "parts"

    package init(client: S3Client) { self.client = client }

    func originalKey(_ id: String) throws -> ObjectKey { try ObjectKey(ObjectLayout.original(id)) }
    func infoKey(_ id: String) throws -> ObjectKey { try ObjectKey(ObjectLayout.uploadInfo(id)) }
    func tailKey(_ id: String, offset: Int64) throws -> ObjectKey {
        try ObjectKey(ObjectLayout.uploadTail(id, offset: offset))
    }

    /// At creation: the multipart upload, and its id where every server finds it.
    func begin(id: String) async throws {
        let key = try originalKey(id)
        let uploadID = try await client.createMultipartUpload(
            key, contentType: "application/octet-stream", cacheControl: "private, no-store")
        do {
            try await client.put(
                try infoKey(id), bytes: ByteBuffer(string: uploadID), contentType: "text/plain",
                cacheControl: "private, no-store", createOnly: true)
        } catch {
            try? await client.abortMultipartUpload(key, uploadID: uploadID)
            throw error
        }
    }

    func multipartID(of id: String) async throws -> String {
        String(buffer: try await client.get(try infoKey(id), limit: 4096))
    }

    /// The acknowledged state at `offset`: the full parts' entity tags and the bytes after them.
    func acknowledged(id: String, offset: Int64) async throws -> (parts: [S3Part], tail: ByteBuffer) {
        guard offset > 0 else { return ([], ByteBuffer()) }
        let key = try tailKey(id, offset: offset)
        guard let info = try await client.head(key) else {
            throw ObjectStoreError(.notFound, "upload \(id): the tail object of offset \(offset) is missing")
        }
        let etags = Self.etags(in: info)
        let full = Int(offset / Int64(Self.partBytes))
        let count = Int(offset % Int64(Self.partBytes))
        guard etags.count == full else {
            throw ObjectStoreError(
                .badResponse, "upload \(id): the tail of offset \(offset) names \(etags.count) parts, not \(full)")
        }
        let tail = count > 0 ? try await client.get(key, limit: Self.partBytes) : ByteBuffer()
        guard tail.readableBytes == count else {
            throw ObjectStoreError(
                .badResponse,
                "upload \(id): the tail object of offset \(offset) holds \(tail.readableBytes) bytes, not \(count)")
        }
        let parts = etags.enumerated().map { S3Part(number: $0 + 1, etag: $1, size: Int64(Self.partBytes)) }
        return (parts, tail)
    }

    /// The parts' entity tags a tail object names, in order.
    static func etags(in tail: ObjectInfo) -> [String] {
        (tail.metadata[partsName] ?? "").split(separator: " ").map(String.init)
    }

    /// A writer for one PATCH that starts at the acknowledged `offset`.
    func writer(id: String, offset: Int64) async throws -> ObjectPartWriter {
        let (parts, tail) = try await acknowledged(id: id, offset: offset)
        return ObjectPartWriter(
            uploads: self, id: id, key: try originalKey(id), uploadID: try await multipartID(of: id), buffer: tail,
            parts: parts)
    }

    /// Puts the parts together into `originals/<id>`, once: an object already there with the upload's length is a
    /// completion that had run before a crash.
    func complete(id: String, length: Int64) async throws {
        let key = try originalKey(id)
        if let existing = try await client.head(key) {
            guard existing.size == length else {
                throw ObjectStoreError(
                    .preconditionFailed, "upload \(id): \(key) already holds \(existing.size) bytes, not \(length)")
            }
            return
        }
        // The tail of the last offset names every part, the last one too (it holds no bytes).
        let last = try tailKey(id, offset: length)
        guard let info = try await client.head(last) else {
            throw ObjectStoreError(.notFound, "upload \(id): the tail object of its last offset is missing")
        }
        let etags = Self.etags(in: info)
        let expected = Int((length + Int64(Self.partBytes) - 1) / Int64(Self.partBytes))
        guard etags.count == expected else {
            throw ObjectStoreError(
                .badResponse, "upload \(id): its last tail names \(etags.count) parts, not \(expected)")
        }
        let parts = etags.enumerated().map { S3Part(number: $0 + 1, etag: $1, size: 0) }
        try await client.completeMultipartUpload(
            key, uploadID: try await multipartID(of: id), parts: parts, createOnly: true)
    }

    /// Everything of an unfinished upload: its multipart upload aborted, its tail and info objects removed.
    func discard(id: String) async throws {
        if let uploadID = try? await multipartID(of: id) {
            try await client.abortMultipartUpload(try originalKey(id), uploadID: uploadID)
        }
        try await removeScratch(id: id)
    }

    /// The tail and info objects (after a completion, or with `discard`).
    func removeScratch(id: String) async throws {
        for object in try await client.list(prefix: ObjectLayout.uploads + id + "/") {
            try await client.delete(try ObjectKey(object.key))
        }
    }
}

/// One PATCH's bytes on their way to the store: each part goes up as soon as it is full; `finish` writes the tail
/// object of the new offset, which makes it durable.
struct ObjectPartWriter {
    let uploads: ObjectUploads
    let id: String
    let key: ObjectKey
    let uploadID: String
    var buffer: ByteBuffer
    /// The full parts so far, in order.
    var parts: [S3Part]

    mutating func append(_ chunk: ByteBuffer) async throws {
        var chunk = chunk
        buffer.writeBuffer(&chunk)
        while buffer.readableBytes >= ObjectUploads.partBytes,
            let part = buffer.readSlice(length: ObjectUploads.partBytes)
        {
            parts.append(
                try await uploads.client.uploadPart(key, uploadID: uploadID, number: parts.count + 1, bytes: part))
        }
        buffer.discardReadBytes()
    }

    /// The tail object of `offset`: the bytes after the last full part and every part's entity tag. When the upload
    /// is `complete`, the bytes left are its last part, uploaded first, and the tail holds no bytes.
    mutating func finish(at offset: Int64, complete: Bool) async throws {
        var tail = buffer
        if complete, buffer.readableBytes > 0 {
            parts.append(
                try await uploads.client.uploadPart(key, uploadID: uploadID, number: parts.count + 1, bytes: buffer))
            tail = ByteBuffer()
        }
        try await uploads.client.put(
            try uploads.tailKey(id, offset: offset), bytes: tail, contentType: "application/octet-stream",
            cacheControl: "private, no-store",
            metadata: [ObjectUploads.partsName: parts.map(\.etag).joined(separator: " ")])
    }
}
