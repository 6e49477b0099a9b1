internal import Catalog
internal import Hummingbird
internal import MediaStore

/// `GET /v1/feed`: pages of published videos, newest first. Plain requests are answered by `FeedFastPath` before
/// the router; the router answers the rest (and explains every error) with the same `feedPage`.
///
/// Each request reads the catalog generation (one indexed row, see `FeedReading.generation()`; for PostgreSQL a
/// round trip, for SQLite an in-process read), so a video appears on the first request after its publish
/// transaction commits, in every server process. Hot pages are answered from `pageCache` while the generation
/// holds. Every page carries a strong ETag (generation, limit and cursor: the bytes are a function of those three),
/// answers `If-None-Match` with 304, and may be cached for a second by a CDN.
extension FeedServer {
    static let feedCacheControl = "public, max-age=1, stale-while-revalidate=5"

    func feed(_ request: Request) async throws -> Response {
        let query = request.uri.queryParameters
        var limit = Self.defaultLimit
        if let text = query["limit"] {
            guard let value = Int(text) else {
                throw APIError(
                    .badRequest, code: "invalid_limit",
                    message:
                        "limit must be a whole number from 1 to \(FeedLimits.maximumPageSize), not \"\(text.prefix(64))\""
                )
            }
            guard (1...FeedLimits.maximumPageSize).contains(value) else {
                throw APIError(
                    .badRequest, code: "limit_out_of_range",
                    message: "limit must be from 1 to \(FeedLimits.maximumPageSize); \(value) is out of range")
            }
            limit = value
        }
        if case let .engaging(catalog) = feedOrder {
            return try await engagingFeed(request, limit: limit, catalog: catalog)
        }
        let key = FeedPageCache.Key(limit: limit, cursor: query["cursor"].map(String.init))
        let page = try await feedPage(key, gzip: AcceptEncoding.acceptsGzip(request.headers[.acceptEncoding]))
        let etag = Self.etag(generation: page.generation, key: key, gzip: page.isGzip)
        var headers = Self.feedHeaders(etag: etag, gzip: page.isGzip)
        if let ifNoneMatch = request.headers[.ifNoneMatch], EntityTag.matches(ifNoneMatch, etag) {
            return Response(status: .notModified, headers: headers)
        }
        headers[.contentType] = "application/json; charset=utf-8"
        return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: page.body))
    }

    typealias PageAnswer = (body: ByteBuffer, generation: Int64, isGzip: Bool)

    /// A page's body — gzip-encoded when `gzip` is asked for and zlib succeeded — and the catalog generation it
    /// belongs to: kept bytes while the generation holds, otherwise a query (kept, with its gzip form, when the page
    /// is hot). The router answers with this on every engine.
    /// - Throws: `APIError` 400 `invalid_cursor`; `CatalogError` when the catalog cannot be read.
    func feedPage(_ key: FeedPageCache.Key, gzip: Bool) async throws -> PageAnswer {
        // A page that is neither kept nor worth keeping (a cursor this server did not issue) skips the generation
        // read: its own query returns the generation it belongs to. With PostgreSQL that is a round trip saved.
        if pageCache.mayHold(key) || pageCache.isHot(key),
            let kept = keptPage(key, gzip: gzip, generation: try await store.generation())
        {
            return kept
        }
        let (page, generation) = try await store.pageWithGeneration(limit: key.limit, after: try Self.cursor(key))
        return try answer(page, generation: generation, key: key, gzip: gzip)
    }

    /// `feedPage` without suspending, for `FeedFastPath` on the event loop: only with an engine that reads in-process.
    func feedPage(_ key: FeedPageCache.Key, gzip: Bool, reading feed: any SynchronousFeed) throws -> PageAnswer {
        if let kept = keptPage(key, gzip: gzip, generation: try feed.generation()) { return kept }
        let (page, generation) = try feed.pageWithGeneration(limit: key.limit, after: try Self.cursor(key))
        return try answer(page, generation: generation, key: key, gzip: gzip)
    }

    func keptPage(_ key: FeedPageCache.Key, gzip: Bool, generation: Int64) -> PageAnswer? {
        guard let cached = pageCache.page(for: key, at: generation) else { return nil }
        if gzip, let encoded = cached.gzipBody { return (encoded, cached.generation, true) }
        return (cached.body, cached.generation, false)
    }

    static func cursor(_ key: FeedPageCache.Key) throws -> FeedPosition? {
        guard let text = key.cursor else { return nil }
        do {
            return try FeedCursor(decoding: text).position
        } catch {
            throw APIError(
                .badRequest, code: "invalid_cursor", message: "\(error); pass back the next_cursor of a previous page")
        }
    }

    func answer(
        _ page: FeedPage, generation: Int64, key: FeedPageCache.Key, gzip: Bool
    ) throws(CatalogError) -> PageAnswer {
        let next = page.next.map { FeedCursor($0).encoded }
        let body = try FeedItemBody.page(page, nextCursor: next, items: renderedItems)
        var encoded: ByteBuffer?
        if pageCache.isHot(key) {
            encoded = gzipEncoder.encode(body)
            pageCache.store(.init(generation: generation, body: body, gzipBody: encoded, nextCursor: next), for: key)
        } else if gzip {
            encoded = gzipEncoder.encode(body)
        }
        if let next { pageCache.remember(issued: next) }
        if gzip, let encoded { return (encoded, generation, true) }
        return (body, generation, false)
    }

    /// The headers every feed page carries; each encoding has its own strong ETag.
    static func feedHeaders(etag: String, gzip: Bool) -> HTTPFields {
        var headers: HTTPFields = [.cacheControl: feedCacheControl, .eTag: etag, .vary: "Accept-Encoding"]
        if gzip { headers[.contentEncoding] = "gzip" }
        return headers
    }

    /// `"<generation>.<limit>.<cursor or first>"`, with `.gz` for the gzip encoding: cursors are base64url, so the
    /// tag needs no escaping.
    static func etag(generation: Int64, key: FeedPageCache.Key, gzip: Bool = false) -> String {
        "\"\(generation).\(key.limit).\(key.cursor ?? "first")\(gzip ? ".gz" : "")\""
    }
}
