internal import FileSystem
internal import Foundation
public import Hummingbird
internal import NIOCore
internal import NIOPosix

extension FeedServer {
    /// `GET /media/...`: a public library file with its MIME type, `ETag`, caching policy and byte ranges.
    /// Anything that does not resolve to a public file inside the library is a 404, whatever the reason.
    ///
    /// Served here rather than by Hummingbird's `FileMiddleware` over a `FileProvider` holding the policy: the
    /// middleware decodes `%2F` before splitting the path, answers `..` with a 400, hashes its own ETag, reads
    /// `bytes=-N` as the first N+1 bytes and sends a 416 without `Content-Range`, all of which clients would see.
    /// What it does right is kept: `realpath` and `lstat` run on NIO's thread pool (`MediaLibrary.file(atRawPath:)`)
    /// and the bytes are read there by Hummingbird's `FileIO`, never on the concurrency pool.
    func media(_ request: Request, context: FeedRequestContext) async throws -> Response {
        if let objectMedia { return try await mediaFromStore(request, media: objectMedia) }
        let path = request.uri.path
        let prefix = "/media/"
        guard path.hasPrefix(prefix), let library,
            let file = try await library.file(atRawPath: path.dropFirst(prefix.count))
        else {
            throw APIError.notFound("media file")
        }
        var headers: HTTPFields = [
            .contentType: file.contentType,
            .eTag: file.etag,
            .cacheControl: file.cacheControl,
            .acceptRanges: "bytes",
            .lastModified: file.lastModified,
        ]
        if file.isPlaylist {
            headers[.vary] = "Accept-Encoding"
            if request.headers[.range] == nil, AcceptEncoding.acceptsGzip(request.headers[.acceptEncoding]),
                let response = try await gzippedPlaylist(
                    file, headers: headers, ifNoneMatch: request.headers[.ifNoneMatch])
            {
                return response
            }
        }
        if let match = request.headers[.ifNoneMatch], EntityTag.matches(match, file.etag) {
            return Response(status: .notModified, headers: headers)
        }
        switch ByteRangeRequest(asking: request.headers, etag: file.etag, size: file.size) {
        case .whole:
            headers[.contentLength] = String(file.size)
            let body = file.size == 0 ? ResponseBody() : try await FileIO().loadFile(path: file.path, context: context)
            return Response(status: .ok, headers: headers, body: body)
        case .partial(let range):
            headers[.contentRange] = "bytes \(range.lowerBound)-\(range.upperBound)/\(file.size)"
            headers[.contentLength] = String(range.count)
            let body = try await FileIO().loadFile(path: file.path, range: range, context: context)
            return Response(status: .partialContent, headers: headers, body: body)
        case .unsatisfiable:
            throw APIError.rangeOutside(request.headers[.range], size: file.size)
        }
    }

    /// A playlist gzip-encoded (Apple 10.1), with its own strong ETag; nil when it cannot be read or encoded here,
    /// and the caller sends it as it is. Playlists are a few kilobytes: read whole on NIO's thread pool.
    func gzippedPlaylist(_ file: MediaFile, headers: HTTPFields, ifNoneMatch: String?) async throws -> Response? {
        let etag = String(file.etag.dropLast()) + ".gz\""
        var headers = headers
        headers[.eTag] = etag
        // Accept-Ranges stays: a request with a Range gets the identity bytes (206).
        headers[.contentEncoding] = "gzip"
        if let ifNoneMatch, EntityTag.matches(ifNoneMatch, etag) {
            return Response(status: .notModified, headers: headers)
        }
        let encoder = gzipEncoder
        guard
            let body = try await NIOThreadPool.singleton.runIfActive({ () -> ByteBuffer? in
                guard let bytes = try? ReadOnlyFile.contents(of: file.path, limit: 1 << 20) else { return nil }
                return encoder.encode(ByteBuffer(bytes: bytes))
            })
        else { return nil }
        headers[.contentLength] = String(body.readableBytes)
        return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: body))
    }
}
