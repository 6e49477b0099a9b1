internal import GRDB

extension FeedStore {
    /// The columns of a FeedVideo, the renditions as JSON (ordered by height) among them.
    static let videoColumns = """
        id, published_at, duration_ms, width, height, master_path, poster_jpeg_path, poster_webp_path,
        (SELECT json_group_array(json(rendition)) FROM (
            SELECT json_object('rung', rung, 'width', width, 'height', height, 'bandwidth', bandwidth,
                               'average_bandwidth', average_bandwidth, 'codecs', codecs, 'segments', segments) AS rendition
            FROM renditions WHERE renditions.video_id = videos.id ORDER BY height)) AS renditions
        """

    static let pageSQL = """
        SELECT \(videoColumns)
        FROM videos INDEXED BY videos_feed
        WHERE status = 'published' AND published_at IS NOT NULL AND (published_at, id) < (?, ?)
        ORDER BY published_at DESC, id DESC
        LIMIT ?
        """

    /// Newest first, `limit` (1...50) items after `cursor`. Keyset pagination: a deep page costs what the first does.
    public func page(limit: Int, after cursor: FeedCursor?) throws(CatalogError) -> FeedPage {
        precondition((1...Self.maximumLimit).contains(limit), "the caller validates the limit")
        return try read { db in try Self.page(limit: limit, after: cursor, db) }
    }

    static func page(limit: Int, after cursor: FeedCursor?, _ db: Database) throws -> FeedPage {
        precondition((1...Self.maximumLimit).contains(limit), "the caller validates the limit")
        let start = cursor ?? FeedCursor(publishedAt: Int64.max, id: "\u{10FFFF}")
        let rows = try Row.fetchAll(db.cachedStatement(sql: Self.pageSQL), arguments: [start.publishedAt, start.id, limit + 1])
        let items = rows.prefix(limit).map(Self.video(row:))
        let next = rows.count > limit ? items.last.map { FeedCursor(publishedAt: $0.publishedAt, id: $0.id) } : nil
        return FeedPage(items: items, nextCursor: next)
    }

    public func video(id: String) throws(CatalogError) -> FeedVideo? {
        try read { db in
            try Row.fetchOne(db.cachedStatement(sql: "SELECT \(Self.videoColumns) FROM videos WHERE id = ? AND status = 'published'"),
                             arguments: [id]).map(Self.video(row:))
        }
    }

    /// A row of `SELECT videoColumns`, read by position: decoding by column name costs more than the query.
    private static func video(row: Row) -> FeedVideo {
        FeedVideo(id: row[0], publishedAt: row[1], durationMilliseconds: row[2], width: row[3], height: row[4],
                  masterPath: row[5], posterJPEGPath: row[6], posterWebPPath: row[7], renditionsJSON: row[8] ?? "[]")
    }

    /// The feed query's plan, for the test that proves it seeks through the index.
    public func pagePlan() throws(CatalogError) -> [PlanStep] {
        try read { db in
            try Row.fetchAll(db, sql: "EXPLAIN QUERY PLAN " + Self.pageSQL, arguments: [Int64.max, "", 10]).map {
                PlanStep(id: $0["id"], parent: $0["parent"], detail: $0["detail"])
            }
        }
    }

    public func videoCount() throws(CatalogError) -> Int {
        try read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM videos") ?? 0 }
    }

    /// One trivial read: proves the catalog opens and answers (`/healthz`).
    public func ping() throws(CatalogError) {
        _ = try read { db in try Int.fetchOne(db, sql: "SELECT 1 FROM videos LIMIT 1") }
    }
}
