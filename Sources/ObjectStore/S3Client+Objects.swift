internal import AsyncHTTPClient
package import NIOCore
internal import NIOHTTP1

extension S3Client {
    /// Stores `bytes` at `key` with the given `Content-Type`, `Cache-Control` and user `metadata`. With `createOnly`
    /// the write carries `If-None-Match: *`, and a key that already exists is not touched.
    /// - Returns: the new object's entity tag.
    /// - Throws: `ObjectStoreError` `.preconditionFailed` when `createOnly` found the key taken.
    @discardableResult
    package func put(
        _ key: ObjectKey, bytes: ByteBuffer, contentType: String, cacheControl: String,
        metadata: [String: String] = [:], createOnly: Bool = false
    ) async throws -> String {
        var headers = Self.objectHeaders(contentType: contentType, cacheControl: cacheControl, metadata: metadata)
        if createOnly { headers.append(("if-none-match", "*")) }
        let answer = try await send(
            Call(.PUT, key: fullKey(key), headers: headers, body: bytes, what: "PUT \(name(key))"))
        return answer.headers.first(name: "etag") ?? ""
    }

    /// The object's size, tag and headers, or nil when there is no such object.
    package func head(_ key: ObjectKey) async throws -> ObjectInfo? {
        do {
            let answer = try await send(Call(.HEAD, key: fullKey(key), what: "HEAD \(name(key))"))
            return Self.info(key.value, answer.headers)
        } catch let error as ObjectStoreError where error.reason == .notFound {
            return nil
        }
    }

    /// The whole object, refused past `limit` bytes (for playlists, outcomes, small files).
    /// - Throws: `ObjectStoreError` `.notFound`, or `.badResponse` past `limit`.
    package func get(_ key: ObjectKey, limit: Int = 16 << 20) async throws -> ByteBuffer {
        try await send(Call(.GET, key: fullKey(key), what: "GET \(name(key))"), collectingUpTo: limit).body
    }

    /// Opens the object for streaming: the answer's head (200, 206 or 304) with its body still to be read. `range`
    /// and `ifNoneMatch` are passed on as the `Range` and `If-None-Match` headers.
    package func open(_ key: ObjectKey, range: String? = nil, ifNoneMatch: String? = nil) async throws -> S3Download {
        var headers: [(name: String, value: String)] = []
        if let range { headers.append(("range", range)) }
        if let ifNoneMatch { headers.append(("if-none-match", ifNoneMatch)) }
        let (response, _) = try await respond(Call(.GET, key: fullKey(key), headers: headers, what: "GET \(name(key))"))
        return S3Download(
            status: Int(response.status.code), info: Self.info(key.value, response.headers),
            contentRange: response.headers.first(name: "content-range"), body: response.body)
    }

    /// Removes the object; a key that is already gone is not an error.
    package func delete(_ key: ObjectKey) async throws {
        do {
            _ = try await send(Call(.DELETE, key: fullKey(key), what: "DELETE \(name(key))"))
        } catch let error as ObjectStoreError where error.reason == .notFound {
            return
        }
    }

    /// Every object whose key (under the location's prefix) starts with `prefix`, in key order, a page of up to 1000
    /// at a time (ListObjectsV2).
    /// - Throws: `ObjectStoreError` `.badKey` when `prefix` holds a control character, `.badResponse` for a listing
    ///   the client cannot read.
    package func list(prefix: String) async throws -> [ObjectInfo] {
        if prefix.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) || prefix.hasPrefix("/") {
            throw ObjectStoreError(.badKey, "listing prefix \(ObjectKey.quoted(prefix)) refused")
        }
        let base = location.prefix.isEmpty ? "" : location.prefix + "/"
        var found: [ObjectInfo] = []
        var token: String?
        repeat {
            var query: [(name: String, value: String)] = [("list-type", "2"), ("prefix", base + prefix)]
            if let token { query.append(("continuation-token", token)) }
            let answer = try await send(
                Call(.GET, key: nil, query: query, what: "LIST s3://\(location.bucket)/\(base + prefix)"),
                collectingUpTo: 16 << 20)
            let page = try S3Listing(xml: String(buffer: answer.body), droppingPrefix: base)
            found += page.objects
            token = page.nextToken
        } while token != nil
        return found
    }

    static func info(_ key: String, _ headers: HTTPHeaders) -> ObjectInfo {
        var metadata: [String: String] = [:]
        for (name, value) in headers where name.lowercased().hasPrefix("x-amz-meta-") {
            metadata[String(name.lowercased().dropFirst(11))] = value
        }
        return ObjectInfo(
            key: key, size: headers.first(name: "content-length").flatMap { Int64($0) } ?? 0,
            etag: headers.first(name: "etag") ?? "", lastModified: headers.first(name: "last-modified") ?? "",
            contentType: headers.first(name: "content-type"), cacheControl: headers.first(name: "cache-control"),
            metadata: metadata)
    }

    /// `Content-Type`, `Cache-Control` and an `x-amz-meta-<name>` header per metadata entry (names sorted, so the
    /// request is the same each time).
    static func objectHeaders(
        contentType: String, cacheControl: String, metadata: [String: String]
    ) -> [(name: String, value: String)] {
        [("content-type", contentType), ("cache-control", cacheControl)]
            + metadata.sorted { $0.key < $1.key }.map { ("x-amz-meta-" + $0.key.lowercased(), $0.value) }
    }
}
