internal import AsyncHTTPClient
internal import Deadlines
internal import FileSystem
package import NIOCore
package import NIOPosix

/// Files to and from the store. Disk reads and writes run on a thread pool, never on the concurrency pool.
extension S3Client {
    /// Files up to this size go in one PUT; bigger ones by multipart upload in parts of this size.
    package static let multipartThreshold = 8 << 20

    /// Uploads the file at `path` to `key` with its headers and user `metadata`: one PUT up to `multipartThreshold`, else a multipart upload that is
    /// aborted when any part fails, so no parts are left behind. With `createOnly` an existing key is not touched.
    /// - Returns: the stored object's size and tag.
    /// - Throws: `ObjectStoreError`, or the `ReadOnlyFile.OpenError`/`FileSystemError` of reading the file.
    @discardableResult
    package func upload(
        file path: String, to key: ObjectKey, contentType: String, cacheControl: String,
        metadata: [String: String] = [:], createOnly: Bool = false,
        partSize: Int = multipartThreshold, threadPool: NIOThreadPool = .singleton
    ) async throws -> ObjectInfo {
        let file = try await threadPool.runIfActive { try ReadOnlyFile(path: path) }
        let size = file.size
        if size <= Int64(max(partSize, Self.minimumPartSize)) {
            let bytes = try await threadPool.runIfActive { try file.read(count: Int(size)) }
            let etag = try await put(
                key, bytes: ByteBuffer(bytes: bytes), contentType: contentType, cacheControl: cacheControl,
                metadata: metadata, createOnly: createOnly)
            return ObjectInfo(key: key.value, size: size, etag: etag, lastModified: "", contentType: contentType)
        }
        let part = max(
            partSize, Self.minimumPartSize, Int((size + Int64(Self.maximumParts) - 1) / Int64(Self.maximumParts)))
        let uploadID = try await createMultipartUpload(
            key, contentType: contentType, cacheControl: cacheControl, metadata: metadata)
        do {
            var parts: [S3Part] = []
            var offset: Int64 = 0
            while offset < size {
                let count = Int(min(Int64(part), size - offset))
                let at = offset
                let bytes = try await threadPool.runIfActive { try file.read(count: count, at: at) }
                guard bytes.count == count else {
                    throw ObjectStoreError(.refused, "\(path) shrank while it was uploaded to \(name(key))")
                }
                parts.append(
                    try await uploadPart(
                        key, uploadID: uploadID, number: parts.count + 1, bytes: ByteBuffer(bytes: bytes)))
                offset += Int64(count)
            }
            let etag = try await completeMultipartUpload(key, uploadID: uploadID, parts: parts, createOnly: createOnly)
            return ObjectInfo(key: key.value, size: size, etag: etag, lastModified: "", contentType: contentType)
        } catch {
            await abandon(key, uploadID: uploadID)
            throw error
        }
    }

    /// Aborts `uploadID` even when the caller was cancelled, within 30 s; a failure is left to the sweep.
    func abandon(_ key: ObjectKey, uploadID: String) async {
        let abort = Task { try? await self.abortMultipartUpload(key, uploadID: uploadID) }
        _ = await value(of: abort, upTo: .seconds(30))
    }

    /// Downloads `key` into a new file at `path` (created 0600, never through a symlink) and syncs it. A download that
    /// fails removes what it wrote.
    /// - Returns: the number of bytes written, checked against the answer's `Content-Length`.
    /// - Throws: `ObjectStoreError` (`.notFound`, `.unavailable` when the answer broke off), or `FileSystemError`
    ///   (a full disk is `isDiskFull`).
    @discardableResult
    package func download(
        _ key: ObjectKey, to path: String, threadPool: NIOThreadPool = .singleton
    ) async throws
        -> Int64
    {
        let object = try await open(key)
        let file = try await threadPool.runIfActive { try WritableFile(path: path) }
        do {
            var written: Int64 = 0
            do {
                for try await chunk in object.body {
                    let at = written
                    try await threadPool.runIfActive {
                        try chunk.withUnsafeReadableBytes { try file.write($0, at: at) }
                    }
                    written += Int64(chunk.readableBytes)
                }
            } catch let error as FileSystemError {
                throw error
            } catch {
                throw ObjectStoreError(
                    .unavailable, "GET \(name(key)): the answer broke off after \(written) bytes: \(error)")
            }
            guard written == object.info.size else {
                throw ObjectStoreError(
                    .unavailable, "GET \(name(key)): got \(written) bytes of the \(object.info.size) announced")
            }
            try await threadPool.runIfActive { try file.sync() }
            return written
        } catch {
            try? await threadPool.runIfActive { Directory.remove(path) }
            throw error
        }
    }
}
