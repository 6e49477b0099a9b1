internal import MediaModel
package import MediaStore
internal import NIOCore
package import ObjectStore

/// Uploads kept in object storage, as tusd's S3 store keeps them. The bytes go to a multipart upload at the job's
/// original key (`originals/<id>`: the upload's id becomes its job's), in parts of exactly `partBytes` (S3's
/// minimum), so the acknowledged offset says which parts are final: parts 1...offset / partBytes. Each acknowledged
/// offset has its tail object, `uploads/<id>/tail-<offset>`: the bytes after the last full part (none on a part
/// boundary), and, as metadata, the entity tags of the full parts before it. The multipart upload's id is in
/// `uploads/<id>/info`. A server that dies mid-request leaves nothing acknowledged that is not in the store; a part
/// written past the catalog's offset is written again by the request that resumes, and the tail of the acknowledged
/// offset names the parts to complete with (SeaweedFS lists a part uploaded twice twice, so its listing cannot).
package struct S3ResumableUploads: ResumableUploads {
    package let client: S3Client
    static let partBytes = S3Client.minimumPartSize
    /// The tail object's metadata entry with the parts' entity tags, in order, separated by spaces.
    package static let partsName = "parts"

    package init(client: S3Client) { self.client = client }

    package var name: String {
        "s3://\(client.location.bucket)" + (client.location.prefix.isEmpty ? "" : "/" + client.location.prefix)
    }

    func originalKey(_ id: String) throws -> ObjectKey { try ObjectKey(ObjectLayout.original(id)) }
    func infoKey(_ id: String) throws -> ObjectKey { try ObjectKey(ObjectLayout.uploadInfo(id)) }
    func tailKey(_ id: String, offset: Int64) throws -> ObjectKey {
        try ObjectKey(ObjectLayout.uploadTail(id, offset: offset))
    }

    /// The multipart upload, and its id where every server finds it.
    package func begin(id: String) async throws {
        try await mapping(ObjectLayout.original(id)) {
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
    }

    func multipartID(of id: String) async throws -> String {
        String(buffer: try await client.get(try infoKey(id), limit: 4096))
    }

    /// A writer from the acknowledged state at `offset`: the full parts' entity tags and the bytes after them.
    package func writer(id: String, offset: Int64) async throws -> any ResumableUploadWriter {
        try await mapping(ObjectLayout.uploadTail(id, offset: offset)) {
            var parts: [S3Part] = []
            var tail = ByteBuffer()
            if offset > 0 {
                let key = try tailKey(id, offset: offset)
                guard let info = try await client.head(key) else {
                    throw ObjectStoreError(.notFound, "upload \(id): the tail object of offset \(offset) is missing")
                }
                let etags = Self.etags(in: info)
                let full = Int(offset / Int64(Self.partBytes))
                let count = Int(offset % Int64(Self.partBytes))
                guard etags.count == full else {
                    throw ObjectStoreError(
                        .badResponse,
                        "upload \(id): the tail of offset \(offset) names \(etags.count) parts, not \(full)")
                }
                tail = count > 0 ? try await client.get(key, limit: Self.partBytes) : ByteBuffer()
                guard tail.readableBytes == count else {
                    throw ObjectStoreError(
                        .badResponse,
                        "upload \(id): the tail object of offset \(offset) holds \(tail.readableBytes) bytes, not \(count)"
                    )
                }
                parts = etags.enumerated().map { S3Part(number: $0 + 1, etag: $1, size: Int64(Self.partBytes)) }
            }
            return S3UploadWriter(
                uploads: self, id: id, key: try originalKey(id), uploadID: try await multipartID(of: id),
                start: offset, buffer: tail, parts: parts)
        }
    }

    /// The parts' entity tags a tail object names, in order.
    static func etags(in tail: ObjectInfo) -> [String] {
        (tail.metadata[partsName] ?? "").split(separator: " ").map(String.init)
    }

    /// Puts the parts together into `originals/<id>`, once: an object already there with the upload's length is a
    /// completion that had run before a crash. Then the tail and info objects go (a failure there leaves them to no
    /// harm: the job's original is in place).
    package func complete(id: String, length: Int64) async throws {
        try await mapping(ObjectLayout.original(id)) {
            let key = try originalKey(id)
            if let existing = try await client.head(key) {
                guard existing.size == length else {
                    throw ObjectStoreError(
                        .preconditionFailed, "upload \(id): \(key) already holds \(existing.size) bytes, not \(length)")
                }
            } else {
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
        }
        try? await removeScratch(id: id)
    }

    /// The multipart upload aborted, the tail and info objects removed.
    package func discard(id: String) async throws {
        try await mapping(ObjectLayout.original(id)) {
            if let uploadID = try? await multipartID(of: id) {
                try await client.abortMultipartUpload(try originalKey(id), uploadID: uploadID)
            }
            try await removeScratch(id: id)
        }
    }

    /// The tail and info objects.
    func removeScratch(id: String) async throws {
        for object in try await client.list(prefix: ObjectLayout.uploads + id + "/") {
            try await client.delete(try ObjectKey(object.key))
        }
    }

    /// `body`, its `ObjectStoreError` turned into the store's case for `key`.
    func mapping<T>(_ key: String, _ body: () async throws -> T) async throws -> T {
        do {
            return try await body()
        } catch let error as ObjectStoreError {
            throw S3MediaStore.storeError(error, key: key)
        }
    }
}
