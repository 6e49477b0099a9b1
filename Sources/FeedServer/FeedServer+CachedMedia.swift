public import Hummingbird
internal import NIOCore
internal import ObjectStore

extension FeedServer {
    /// `/media/...` answered from `cache`, filled from the store on a miss and revalidated with its entity tag once
    /// stale (and served stale while the store does not answer). The store is always asked for the whole object, so one fill serves every range and validator after it.
    /// Nil when the caller should ask the store itself: a HEAD of an object not held (nothing is fetched for it), or
    /// an object too large to hold that the request wants only part of.
    /// - Throws: `ObjectStoreError` from the store (a 404 also drops what was held); `APIError` 416.
    func cachedMedia(
        _ request: Request, key: ObjectKey, headers: HTTPFields, cache: ObjectMediaCache, client: S3Client
    ) async throws -> Response? {
        var held: ObjectMediaCache.Entry?
        switch cache.find(key.value) {
        case .fresh(let entry):
            return try Self.answer(request, from: entry, headers: headers)
        case .stale(let entry):
            held = entry
        case .miss:
            if request.method == .head { return nil }
        }
        let download: S3Download
        do {
            download = try await client.open(key, ifNoneMatch: held?.etag)
        } catch let error as ObjectStoreError where error.reason == .notFound {
            cache.remove(key.value)
            throw error
        } catch let error as ObjectStoreError where error.reason == .unavailable {
            // A store that does not answer cannot say the file changed: what is held is served meanwhile.
            guard let held else { throw error }
            return try Self.answer(request, from: held, headers: headers)
        }
        if download.status == 304, let held {
            cache.insert(key.value, held)
            return try Self.answer(request, from: held, headers: headers)
        }
        if download.status == 200, download.info.size <= Int64(cache.maxObjectBytes) {
            let entry = ObjectMediaCache.Entry(
                body: try await download.collect(upTo: cache.maxObjectBytes), etag: download.info.etag,
                lastModified: download.info.lastModified)
            cache.insert(key.value, entry)
            return try Self.answer(request, from: entry, headers: headers)
        }
        cache.remove(key.value)
        guard download.status == 200, request.method == .get, request.headers[.range] == nil,
            request.headers[.ifNoneMatch] == nil
        else { return nil }
        // Too large to hold, and wanted whole: this answer is the one the request needs.
        var streamed = headers
        streamed[.eTag] = download.info.etag
        streamed[.lastModified] = download.info.lastModified
        streamed[.contentLength] = String(download.info.size)
        return Response(status: .ok, headers: streamed, body: ResponseBody(asyncSequence: download.body))
    }

    /// A held object's answer to `request`: 304 for a matching `If-None-Match`, the headers alone for a HEAD, else
    /// the whole body or the one range asked for (`If-Range` with another validator asks for it all).
    static func answer(_ request: Request, from entry: ObjectMediaCache.Entry, headers: HTTPFields) throws -> Response {
        var headers = headers
        headers[.eTag] = entry.etag
        headers[.lastModified] = entry.lastModified
        let size = entry.body.readableBytes
        if let match = request.headers[.ifNoneMatch], EntityTag.matches(match, entry.etag) {
            return Response(status: .notModified, headers: headers)
        }
        if request.method == .head {
            headers[.contentLength] = String(size)
            return Response(status: .ok, headers: headers)
        }
        switch ByteRangeRequest(asking: request.headers, etag: entry.etag, size: size) {
        case .whole:
            headers[.contentLength] = String(size)
            return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: entry.body))
        case .partial(let range):
            headers[.contentRange] = "bytes \(range.lowerBound)-\(range.upperBound)/\(size)"
            headers[.contentLength] = String(range.count)
            let slice = entry.body.getSlice(at: entry.body.readerIndex + range.lowerBound, length: range.count)
            return Response(status: .partialContent, headers: headers, body: ResponseBody(byteBuffer: slice ?? .init()))
        case .unsatisfiable:
            throw APIError.rangeOutside(request.headers[.range], size: size)
        }
    }
}
