internal import FeedStore
internal import Hummingbird

/// `GET /v1/feed`: pages of published videos, newest first. Plain requests are answered by `FeedFastPath` before
/// the router; the router answers the rest (and explains every error) with the same `feedPage`.
///
/// Each request reads the catalog generation (one indexed row, see `FeedStore.generation()`), so a video appears on
/// the first request after its publish transaction commits, in every server process. Hot pages are answered from
/// `pageCache` while the generation holds. Every page carries a strong ETag (generation, limit and cursor: the
/// bytes are a function of those three), answers `If-None-Match` with 304, and may be cached for a second by a CDN.
extension FeedServer {
    static let feedCacheControl = "public, max-age=1, stale-while-revalidate=5"

    func feed(_ request: Request) throws -> Response {
        let query = request.uri.queryParameters
        var limit = Self.defaultLimit
        if let text = query["limit"] {
            guard let value = Int(text) else {
                throw APIError(.badRequest, code: "invalid_limit", message: "limit must be a whole number from 1 to \(FeedStore.maximumLimit), not \"\(text.prefix(64))\"")
            }
            guard (1...FeedStore.maximumLimit).contains(value) else {
                throw APIError(.badRequest, code: "limit_out_of_range", message: "limit must be from 1 to \(FeedStore.maximumLimit); \(value) is out of range")
            }
            limit = value
        }
        let key = FeedPageCache.Key(limit: limit, cursor: query["cursor"].map(String.init))
        let page = try feedPage(key)
        return Self.feedResponse(page.body, etag: Self.etag(generation: page.generation, key: key), ifNoneMatch: request.headers[.ifNoneMatch])
    }

    /// The body of the page at `key` and the catalog generation it belongs to: kept bytes while the generation
    /// holds, otherwise a query (kept when the page is hot). The router and `FeedFastPath` both answer with this.
    /// - Throws: `APIError` 400 `invalid_cursor`; `CatalogError` when the catalog cannot be read.
    func feedPage(_ key: FeedPageCache.Key) throws -> (body: ByteBuffer, generation: Int64) {
        if let cached = pageCache.page(for: key, at: try store.generation()) {
            return (cached.body, cached.generation)
        }
        var cursor: FeedCursor?
        if let text = key.cursor {
            do {
                cursor = try FeedCursor(decoding: text)
            } catch {
                throw APIError(.badRequest, code: "invalid_cursor", message: "\(error); pass back the next_cursor of a previous page")
            }
        }
        let (page, generation) = try store.pageWithGeneration(limit: key.limit, after: cursor)
        let body = FeedItemBody.page(page)
        let next = page.nextCursor?.encoded
        if pageCache.isHot(key) {
            pageCache.store(.init(generation: generation, body: body, nextCursor: next), for: key)
        }
        if let next { pageCache.remember(issued: next) }
        return (body, generation)
    }

    /// `"<generation>.<limit>.<cursor or first>"`: cursors are base64url, so the tag needs no escaping.
    static func etag(generation: Int64, key: FeedPageCache.Key) -> String {
        "\"\(generation).\(key.limit).\(key.cursor ?? "first")\""
    }

    static func feedResponse(_ body: ByteBuffer, etag: String, ifNoneMatch: String?) -> Response {
        var headers: HTTPFields = [.cacheControl: feedCacheControl, .eTag: etag]
        if let ifNoneMatch, EntityTag.matches(ifNoneMatch, etag) {
            return Response(status: .notModified, headers: headers)
        }
        headers[.contentType] = "application/json; charset=utf-8"
        return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: body))
    }
}
