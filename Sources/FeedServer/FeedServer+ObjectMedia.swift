internal import Foundation
public import Hummingbird
internal import MediaModel
internal import NIOCore
internal import ObjectStore

extension FeedServer {
    /// `GET`/`HEAD /media/...` from the store: a 302 to a presigned URL with `--media-redirect`, else from this
    /// server's memory (`ObjectMediaCache`) or the store's answer passed on (200, 206 or 304, `Content-Range`, the
    /// store's `ETag` and `Last-Modified`) with this server's type and caching for the name. A store that does not answer is a 503 with `Retry-After`; a missing object, or a
    /// path that is not a public file, a 404.
    func mediaFromStore(_ request: Request, media: ObjectMedia) async throws -> Response {
        let prefix = "/media/"
        let path = request.uri.path
        guard path.hasPrefix(prefix), let key = ObjectMedia.key(forRawPath: path.dropFirst(prefix.count)) else {
            throw APIError.notFound("media file")
        }
        let contentType = MediaPolicy.contentType(forName: key.value[...])
        if let expiry = media.redirectExpiry {
            let url = try media.client.presignedURL(key, expires: expiry)
            // The URL expires: a cache must not keep the redirect longer than a fraction of it.
            return Response(status: .found, headers: [.location: url, .cacheControl: "private, max-age=60"])
        }
        var headers: HTTPFields = [
            .contentType: contentType, .cacheControl: MediaPolicy.cacheControl(forContentType: contentType),
            .acceptRanges: "bytes",
        ]
        do {
            if let cache = media.cache,
                let response = try await cachedMedia(
                    request, key: key, headers: headers, cache: cache, client: media.client)
            {
                return response
            }
            if request.method == .head {
                guard let info = try await media.client.head(key) else { throw APIError.notFound("media file") }
                headers[.eTag] = info.etag
                headers[.lastModified] = info.lastModified
                headers[.contentLength] = String(info.size)
                if let match = request.headers[.ifNoneMatch], EntityTag.matches(match, info.etag) {
                    return Response(status: .notModified, headers: headers)
                }
                return Response(status: .ok, headers: headers)
            }
            // If-Range: the store is not asked to judge it; a range whose validator is stale gets the whole object.
            let range = request.headers[.ifRange] == nil ? request.headers[.range] : nil
            let download = try await media.client.open(key, range: range, ifNoneMatch: request.headers[.ifNoneMatch])
            headers[.eTag] = download.info.etag
            headers[.lastModified] = download.info.lastModified
            switch download.status {
            case 304:
                return Response(status: .notModified, headers: headers)
            case 206:
                headers[.contentRange] = download.contentRange
                headers[.contentLength] = String(download.info.size)
                return Response(
                    status: .partialContent, headers: headers, body: ResponseBody(asyncSequence: download.body))
            default:
                headers[.contentLength] = String(download.info.size)
                return Response(status: .ok, headers: headers, body: ResponseBody(asyncSequence: download.body))
            }
        } catch let error as ObjectStoreError {
            switch error.reason {
            case .notFound:
                throw APIError.notFound("media file")
            case .unavailable:
                throw APIError(
                    .serviceUnavailable, code: "storage_unavailable",
                    message: "the media store did not answer; try again shortly",
                    headers: [.retryAfter: String(ObjectMedia.retryAfterSeconds)])
            case .refused where error.status == 416:
                throw APIError(
                    .rangeNotSatisfiable, code: "range_not_satisfiable",
                    message: "the range \"\((request.headers[.range] ?? "").prefix(64))\" is outside this file")
            default:
                throw error
            }
        }
    }
}
