internal import Catalog
internal import Foundation
internal import Hummingbird
internal import MediaStore

/// `GET /v1/feed` with `--feed-order engaging`: pages of the newest stored ranking, and with a cursor, of the ranking
/// that cursor began on, so paging never repeats or skips an item while scores move (docs/analytics.md). A video no
/// longer published is left out of the page; one published after the ranking was made joins the next ranking.
extension FeedServer {
    func engagingFeed(
        _ request: Request, limit: Int, catalog: any FeedRanking & ViewerEventLog
    ) async throws -> Response {
        let cursorText = request.uri.queryParameters["cursor"].map(String.init)
        var cursor: RankedCursor?
        if let cursorText {
            do {
                cursor = try RankedCursor(decoding: cursorText)
            } catch {
                throw APIError(
                    .badRequest, code: "invalid_cursor",
                    message: "\(error); pass back the next_cursor of a previous page")
            }
        }
        let number: Int64
        if let cursor {
            number = cursor.ranking
        } else if let newest = try await catalog.latestRankingNumber() {
            number = newest
        } else {
            // The roll-up service makes the first ranking as the server starts; this is the moment before.
            throw APIError(
                .serviceUnavailable, code: "ranking_not_ready",
                message: "the engaging feed's first ranking is being made; ask again in a second",
                headers: [.retryAfter: "1"])
        }
        guard let videos = try await rankingVideos(number, catalog: catalog) else {
            throw APIError(
                .gone, code: "cursor_expired",
                message:
                    "ranking \(number), which this cursor pages through, is gone (rankings are kept for an hour); start again from the first page"
            )
        }
        let (items, next) = try await Self.rankedItems(
            videos, from: cursor?.offset ?? 0, limit: limit, catalog: catalog)
        let nextCursor = next.map { RankedCursor(ranking: number, offset: $0).encoded }
        let body = try FeedItemBody.page(
            FeedPage(items: items, next: nil), nextCursor: nextCursor, items: renderedItems)
        // The ranking never changes and the generation changes with any publish, so the pair names these bytes.
        let generation = try await store.generation()
        let gzip = AcceptEncoding.acceptsGzip(request.headers[.acceptEncoding])
        let encoded = gzip ? gzipEncoder.encode(body) : nil
        let etag = "\"e\(number).\(generation).\(limit).\(cursorText ?? "first")\(encoded != nil ? ".gz" : "")\""
        var headers = Self.feedHeaders(etag: etag, gzip: encoded != nil)
        if let ifNoneMatch = request.headers[.ifNoneMatch], EntityTag.matches(ifNoneMatch, etag) {
            return Response(status: .notModified, headers: headers)
        }
        headers[.contentType] = "application/json; charset=utf-8"
        return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: encoded ?? body))
    }

    /// A ranking's videos, from memory once read.
    func rankingVideos(_ number: Int64, catalog: any FeedRanking) async throws -> [String]? {
        if let kept = rankings.videos(number) { return kept }
        guard let stored = try await catalog.ranking(number: number) else { return nil }
        rankings.keep(number, stored.videos)
        return stored.videos
    }

    /// Up to `limit` published items of `videos` from `offset`, leaving out those no longer published, and the
    /// offset the next page starts at (nil after the last video).
    static func rankedItems(
        _ videos: [String], from offset: Int, limit: Int, catalog: any FeedRanking
    ) async throws -> (items: [FeedItem], next: Int?) {
        var items: [FeedItem] = []
        var next = offset
        while items.count < limit, next < videos.count {
            let chunk = Array(videos[next..<min(videos.count, next + limit - items.count)])
            let found = try await catalog.publishedItems(ids: chunk)
            for id in chunk {
                next += 1
                if let item = found[id] { items.append(item) }
            }
        }
        return (items, next < videos.count ? next : nil)
    }
}
