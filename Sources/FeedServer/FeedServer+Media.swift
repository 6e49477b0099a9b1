internal import Foundation
package import Hummingbird
internal import MediaModel
internal import MediaStore
internal import NIOCore
internal import NIOPosix

extension FeedServer {
    /// `GET`/`HEAD /media/...`: a public library object with its MIME type, `ETag`, caching policy and byte ranges,
    /// from whichever store holds the library (`MediaServing`), or a 302 to a presigned URL with `--media-redirect`.
    /// Anything that does not name a public object is a 404, whatever the reason; a store that does not answer is a
    /// 503 with `Retry-After`.
    ///
    /// Served here rather than by Hummingbird's `FileMiddleware` over a `FileProvider` holding the policy: the
    /// middleware decodes `%2F` before splitting the path, answers `..` with a 400, hashes its own ETag, reads
    /// `bytes=-N` as the first N+1 bytes and sends a 416 without `Content-Range`, all of which clients would see.
    /// What it does right is kept: a directory store resolves and reads on NIO's thread pool, and a local file's
    /// bytes are sent by Hummingbird's `FileIO`, never read on the concurrency pool.
    func media(_ request: Request, context: FeedRequestContext) async throws -> Response {
        let path = request.uri.path
        let prefix = "/media/"
        guard path.hasPrefix(prefix), let media else { throw APIError.notFound("media file") }
        // A private post's file comes through `/media/s/<token>/<key>` (PlaybackSigner).
        var rest = path.dropFirst(prefix.count)
        var token: Substring?
        if rest.hasPrefix("s/") {
            let signed = rest.dropFirst(2)
            guard let slash = signed.firstIndex(of: "/") else { throw APIError.notFound("media file") }
            token = signed[..<slash]
            rest = signed[signed.index(after: slash)...]
        }
        guard let relative = MediaLibrary.publicRelativePath(rest), let key = try? MediaKey(relative) else {
            throw APIError.notFound("media file")
        }
        // Decided before any file or object is read.
        var signedUntil: Int64?
        if let accessGate {
            let now = Self.now / 1000
            switch try await accessGate.decide(key: key.value, token: token, now: now) {
            case .open: break
            case let .signed(expires): signedUntil = expires
            case let .refused(code, message): throw APIError(.forbidden, code: code.rawValue, message: message)
            }
        } else if token != nil {
            throw APIError.notFound("media file")
        }
        if let expiry = media.redirectExpiry {
            // A signed URL's redirect expires no later than the URL itself.
            let left = signedUntil.map { Duration.seconds(max(1, $0 - Self.now / 1000)) }
            let url = try media.store.presignedURL(for: key, expires: left.map { min($0, expiry) } ?? expiry)
            // The URL expires: a cache must not keep the redirect longer than a fraction of it.
            return Response(status: .found, headers: [.location: url, .cacheControl: "private, max-age=60"])
        }
        let contentType = MediaPolicy.contentType(forName: key.value[...])
        var headers: HTTPFields = [
            .contentType: contentType, .cacheControl: MediaPolicy.cacheControl(forKey: key.value),
            .acceptRanges: "bytes",
        ]
        // A private post's file is no shared cache's to keep, and no longer than its URL plays.
        if let signedUntil { headers[.cacheControl] = "private, max-age=\(max(0, signedUntil - Self.now / 1000))" }
        do {
            if contentType == MediaPolicy.playlistType {
                headers[.vary] = "Accept-Encoding"
                if request.headers[.range] == nil, AcceptEncoding.acceptsGzip(request.headers[.acceptEncoding]),
                    let response = try await gzippedPlaylist(
                        key, store: media.store, headers: headers, ifNoneMatch: request.headers[.ifNoneMatch])
                {
                    return response
                }
            }
            if request.method == .head {
                guard let info = try await media.store.head(key) else { throw APIError.notFound("media file") }
                Self.describe(info, in: &headers)
                if let match = request.headers[.ifNoneMatch], EntityTag.matches(match, info.etag) {
                    return Response(status: .notModified, headers: headers)
                }
                headers[.contentLength] = String(info.size)
                return Response(status: .ok, headers: headers)
            }
            let range = try await requestedRange(request, key: key, store: media.store)
            let read = try await media.store.get(key, range: range, ifNoneMatch: request.headers[.ifNoneMatch])
            Self.describe(read.info, in: &headers)
            switch read.status {
            case .notModified:
                return Response(status: .notModified, headers: headers)
            case .whole:
                headers[.contentLength] = String(read.contentLength)
                return Response(status: .ok, headers: headers, body: try await body(read, context: context))
            case .partial:
                headers[.contentRange] = read.contentRange
                headers[.contentLength] = String(read.contentLength)
                return Response(status: .partialContent, headers: headers, body: try await body(read, context: context))
            }
        } catch let error as MediaStoreError {
            switch error {
            case .notFound, .badKey:
                throw APIError.notFound("media file")
            case .unavailable:
                throw APIError(
                    .serviceUnavailable, code: "storage_unavailable",
                    message: "the media store did not answer; try again shortly",
                    headers: [.retryAfter: String(MediaServing.retryAfterSeconds)])
            case .rangeNotSatisfiable(_, let size):
                throw APIError.rangeOutside(request.headers[.range], size: Int(size))
            default:
                throw error
            }
        }
    }

    /// The range to ask the store for: none for the whole object. A `Range` whose syntax says nothing without the
    /// object's size, or one under `If-Range`, is judged against the object's facts first (a 416 needs its size;
    /// an `If-Range` with another validator asks for the whole object).
    func requestedRange(_ request: Request, key: MediaKey, store: any MediaStore) async throws -> MediaByteRange? {
        guard let header = request.headers[.range] else { return nil }
        let parsed = ByteRangeRequest.parse(header)
        if request.headers[.ifRange] == nil, case .range(let range) = parsed { return range }
        if request.headers[.ifRange] == nil, case .whole = parsed { return nil }
        guard let info = try await store.head(key) else { throw MediaStoreError.notFound(key: key.value) }
        switch ByteRangeRequest(asking: request.headers, etag: info.etag, size: Int(info.size)) {
        case .whole: return nil
        case .partial(let range): return .span(first: Int64(range.lowerBound), last: Int64(range.upperBound))
        case .unsatisfiable: throw MediaStoreError.rangeNotSatisfiable(key: key.value, size: info.size)
        }
    }

    /// The read's bytes as a response body: a local file sent by Hummingbird's `FileIO` (on NIO's thread pool), bytes
    /// already in memory as they are, else the store's stream.
    func body(_ read: MediaRead, context: FeedRequestContext) async throws -> ResponseBody {
        if let buffer = read.body.buffer { return ResponseBody(byteBuffer: buffer) }
        if let file = read.body.localFile {
            guard file.count > 0 else { return ResponseBody() }
            let range = Int(file.offset)...Int(file.offset + file.count - 1)
            if case .whole = read.status { return try await FileIO().loadFile(path: file.path, context: context) }
            return try await FileIO().loadFile(path: file.path, range: range, context: context)
        }
        return ResponseBody(asyncSequence: read.body.stream)
    }

    static func describe(_ info: MediaObjectInfo, in headers: inout HTTPFields) {
        headers[.eTag] = info.etag
        if !info.lastModified.isEmpty { headers[.lastModified] = info.lastModified }
    }

    /// A playlist gzip-encoded (Apple 10.1), with its own strong ETag; nil when it cannot be read or encoded here,
    /// and the caller sends it as it is. Playlists are a few kilobytes: read whole.
    func gzippedPlaylist(
        _ key: MediaKey, store: any MediaStore, headers: HTTPFields, ifNoneMatch: String?
    ) async throws -> Response? {
        let read = try await store.get(key, range: nil, ifNoneMatch: nil)
        guard let bytes = try? await read.body.collect(upTo: 1 << 20, key: key.value) else { return nil }
        let etag = String(read.info.etag.dropLast()) + ".gz\""
        var headers = headers
        Self.describe(read.info, in: &headers)
        headers[.eTag] = etag
        // Accept-Ranges stays: a request with a Range gets the identity bytes (206).
        headers[.contentEncoding] = "gzip"
        if let ifNoneMatch, EntityTag.matches(ifNoneMatch, etag) {
            return Response(status: .notModified, headers: headers)
        }
        let encoder = gzipEncoder
        guard let body = try await NIOThreadPool.singleton.runIfActive({ encoder.encode(bytes) }) else { return nil }
        headers[.contentLength] = String(body.readableBytes)
        return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: body))
    }
}
