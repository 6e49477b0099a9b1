public import GRDB

/// Reads and writes the catalog. Reads run on the pool's readers, concurrently with the writer.
public struct FeedStore: Sendable {
    public let database: FeedDatabase
    public static let maximumLimit = 50

    public init(database: FeedDatabase) { self.database = database }

    static let pageSQL = """
        SELECT id, published_at, duration_ms, width, height, master_path, poster_jpeg_path, poster_webp_path
        FROM videos INDEXED BY videos_feed
        WHERE status = 'published' AND published_at IS NOT NULL AND (published_at, id) < (?, ?)
        ORDER BY published_at DESC, id DESC
        LIMIT ?
        """

    /// Newest first, `limit` (1...50) items after `cursor`. Keyset pagination: a deep page costs what the first does.
    public func page(limit: Int, after cursor: FeedCursor?) throws -> FeedPage {
        precondition((1...Self.maximumLimit).contains(limit), "the caller validates the limit")
        return try database.pool.read { db in
            let start = cursor ?? FeedCursor(publishedAt: Int64.max, id: "\u{10FFFF}")
            let rows = try Row.fetchAll(db, sql: Self.pageSQL, arguments: [start.publishedAt, start.id, limit + 1])
            var items = try rows.prefix(limit).map { row in
                FeedVideo(id: row["id"], publishedAt: row["published_at"], durationMilliseconds: row["duration_ms"],
                          width: row["width"], height: row["height"], masterPath: row["master_path"],
                          posterJPEGPath: row["poster_jpeg_path"], posterWebPPath: row["poster_webp_path"], renditions: [])
            }
            try attachRenditions(&items, db)
            let next = rows.count > limit ? items.last.map { FeedCursor(publishedAt: $0.publishedAt, id: $0.id) } : nil
            return FeedPage(items: items, nextCursor: next)
        }
    }

    public func video(id: String) throws -> FeedVideo? {
        try database.pool.read { db in
            guard let row = try Row.fetchOne(db, sql: """
                SELECT id, published_at, duration_ms, width, height, master_path, poster_jpeg_path, poster_webp_path
                FROM videos WHERE id = ? AND status = 'published'
                """, arguments: [id]) else { return nil }
            var items = [FeedVideo(id: row["id"], publishedAt: row["published_at"], durationMilliseconds: row["duration_ms"],
                                   width: row["width"], height: row["height"], masterPath: row["master_path"],
                                   posterJPEGPath: row["poster_jpeg_path"], posterWebPPath: row["poster_webp_path"], renditions: [])]
            try attachRenditions(&items, db)
            return items.first
        }
    }

    private func attachRenditions(_ items: inout [FeedVideo], _ db: Database) throws {
        guard !items.isEmpty else { return }
        let placeholders = Array(repeating: "?", count: items.count).joined(separator: ",")
        let rows = try Row.fetchAll(db, sql: """
            SELECT video_id, rung, width, height, bandwidth, average_bandwidth, codecs, segments
            FROM renditions WHERE video_id IN (\(placeholders)) ORDER BY video_id, height
            """, arguments: StatementArguments(items.map(\.id)))
        var byVideo: [String: [FeedVideo.Rendition]] = [:]
        for row in rows {
            byVideo[row["video_id"], default: []].append(FeedVideo.Rendition(
                rung: row["rung"], width: row["width"], height: row["height"], bandwidth: row["bandwidth"],
                averageBandwidth: row["average_bandwidth"], codecs: row["codecs"], segments: row["segments"]))
        }
        for index in items.indices { items[index].renditions = byVideo[items[index].id] ?? [] }
    }

    /// The feed query's plan, for the test that proves it seeks through the index.
    public func pagePlan() throws -> [String] {
        try database.pool.read { db in
            try Row.fetchAll(db, sql: "EXPLAIN QUERY PLAN " + Self.pageSQL, arguments: [Int64.max, "", 10]).map { $0["detail"] }
        }
    }
}

extension FeedStore {
    public func videoCount() throws -> Int {
        try database.pool.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM videos") ?? 0 }
    }
}

extension FeedStore {
    /// One trivial read: proves the catalog opens and answers (`/healthz`).
    public func ping() throws {
        _ = try database.pool.read { db in try Int.fetchOne(db, sql: "SELECT 1 FROM videos LIMIT 1") }
    }
}
