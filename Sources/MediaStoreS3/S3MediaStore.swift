internal import FileSystem
package import MediaStore
package import NIOCore
package import NIOPosix
package import ObjectStore

/// The library in object storage (`--library s3://bucket/prefix`): each key an object under the prefix, through
/// Reel's own `S3Client` (create-only writes, ranged reads, multipart uploads of large files, presigned URLs). An
/// object keeps the attributes it was written with, and a content hash (`MediaAttributes.contentHashName`, the name
/// `reel library copy` writes too) under which a retried publish recognises its own earlier write.
package struct S3MediaStore: MediaStore {
    package let client: S3Client
    /// Files uploaded at once by `publish`.
    package var parallelUploads = 4
    let threadPool: NIOThreadPool

    package init(client: S3Client, threadPool: NIOThreadPool = .singleton) {
        self.client = client
        self.threadPool = threadPool
    }

    /// The user-metadata name under which published objects carry their SHA-256.
    package static let hashName = MediaAttributes.contentHashName

    package var name: String {
        "s3://\(client.location.bucket)" + (client.location.prefix.isEmpty ? "" : "/" + client.location.prefix)
    }
    package var canPresign: Bool { true }
    package var keepsMetadata: Bool { true }

    package func put(
        _ key: MediaKey, bytes: ByteBuffer, attributes: MediaAttributes, createOnly: Bool
    ) async throws
        -> MediaObjectInfo
    {
        try await mapping(key.value) {
            let etag = try await client.put(
                try ObjectKey(key.value), bytes: bytes, contentType: attributes.contentType,
                cacheControl: attributes.cacheControl, metadata: attributes.metadata, createOnly: createOnly)
            return MediaObjectInfo(
                key: key.value, size: Int64(bytes.readableBytes), etag: etag, lastModified: "",
                contentType: attributes.contentType, cacheControl: attributes.cacheControl,
                metadata: attributes.metadata)
        }
    }

    package func put(
        _ key: MediaKey, file path: String, attributes: MediaAttributes, createOnly: Bool
    )
        async throws -> MediaObjectInfo
    {
        try await mapping(key.value, file: path) {
            let info = try await client.upload(
                file: path, to: try ObjectKey(key.value), contentType: attributes.contentType,
                cacheControl: attributes.cacheControl, metadata: attributes.metadata, createOnly: createOnly,
                threadPool: threadPool)
            return MediaObjectInfo(
                key: key.value, size: info.size, etag: info.etag, lastModified: "",
                contentType: attributes.contentType, cacheControl: attributes.cacheControl,
                metadata: attributes.metadata)
        }
    }

    package func get(_ key: MediaKey, range: MediaByteRange?, ifNoneMatch: String?) async throws -> MediaRead {
        let objectKey = try await mapping(key.value) { try ObjectKey(key.value) }
        let download: S3Download
        do {
            download = try await client.open(objectKey, range: range?.headerValue, ifNoneMatch: ifNoneMatch)
        } catch let error as ObjectStoreError where error.status == 416 {
            let size = (try? await client.head(objectKey))?.size ?? 0
            throw MediaStoreError.rangeNotSatisfiable(key: key.value, size: size)
        } catch let error as ObjectStoreError {
            throw Self.storeError(error, key: key.value)
        }
        let answered = Self.info(download.info)
        switch download.status {
        case 304:
            return MediaRead(status: .notModified, info: answered, body: .empty)
        case 206:
            guard let parsed = download.contentRange.flatMap(Self.parseContentRange) else {
                throw MediaStoreError.failed("GET \(key): a 206 without a usable Content-Range")
            }
            let (bytes, size) = parsed
            let info = MediaObjectInfo(
                key: answered.key, size: size, etag: answered.etag, lastModified: answered.lastModified,
                modifiedSeconds: answered.modifiedSeconds, contentType: answered.contentType,
                cacheControl: answered.cacheControl, metadata: answered.metadata)
            return MediaRead(
                status: .partial(bytes), info: info, body: MediaBody(stream: MediaByteStream(download.body)))
        default:
            return MediaRead(status: .whole, info: answered, body: MediaBody(stream: MediaByteStream(download.body)))
        }
    }

    package func head(_ key: MediaKey) async throws -> MediaObjectInfo? {
        try await mapping(key.value) { try await client.head(try ObjectKey(key.value)).map(Self.info) }
    }

    package func list(prefix: String) async throws -> [MediaObjectInfo] {
        try await mapping(prefix) { try await client.list(prefix: prefix).map(Self.info) }
    }

    /// `list(prefix:)`: a bucket holds nothing but objects, so there is nothing more to refuse.
    package func listStrictly(prefix: String) async throws -> [MediaObjectInfo] { try await list(prefix: prefix) }

    package func delete(_ key: MediaKey) async throws {
        try await mapping(key.value) { try await client.delete(try ObjectKey(key.value)) }
    }

    package func presignedURL(for key: MediaKey, expires: Duration) throws -> String {
        let objectKey: ObjectKey
        do { objectKey = try ObjectKey(key.value) } catch { throw Self.storeError(error, key: key.value) }
        do {
            return try client.presignedURL(objectKey, expires: expires)
        } catch {
            throw MediaStoreError.failed("presigning \(key): \(error)")
        }
    }
}
