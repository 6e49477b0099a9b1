package import Catalog
internal import Foundation
internal import GRDB
internal import MediaModel

extension SQLiteCatalogEngine {
    /// Only the index's columns and the stored record: a page never reads the renditions.
    /// The catalog generation rides along (SQLite evaluates the uncorrelated subquery once), so one statement — one
    /// read snapshot — gives a page and the generation it belongs to. Run by `SQLiteFeedReader`.
    static let pageSQL = """
        SELECT published_at, id, item_record, (SELECT value FROM catalog_generation WHERE id = 1)
        FROM videos INDEXED BY videos_feed
        WHERE status = 'published' AND visibility = 'public' AND published_at IS NOT NULL AND (published_at, id) < (?, ?)
        ORDER BY published_at DESC, id DESC
        LIMIT ?
        """

    static let videoSQL = """
        SELECT id, published_at, duration_ms, width, height, master_path, poster_jpeg_path, poster_webp_path,
               storyboard_vtt_path, storyboard_image_path, storyboard_interval_s, storyboard_tile_width, storyboard_tile_height,
               storyboard_columns, storyboard_count
        FROM videos WHERE id = ?
        """

    /// `videoSQL` for a catalog from before migration v7, which has no storyboard columns.
    static let videoSQLWithoutStoryboards = """
        SELECT id, published_at, duration_ms, width, height, master_path, poster_jpeg_path, poster_webp_path
        FROM videos WHERE id = ?
        """

    static let renditionsSQL = """
        SELECT rung, width, height, bandwidth, average_bandwidth, codecs, segments, init_bytes, segment_duration_ms, first_segments,
               video_codec, crf, target_ssim_y
        FROM renditions WHERE video_id = ?
        """

    /// Newest first, `limit` (1...50) items after `cursor`. Keyset pagination: a deep page costs what the first does.
    package func page(limit: Int, after cursor: FeedPosition?) async throws(CatalogError) -> FeedPage {
        try await pageWithGeneration(limit: limit, after: cursor).page
    }

    /// A published video with its renditions, or nil.
    package func video(id: String) async throws(CatalogError) -> FeedVideo? {
        try await read { db in
            guard
                try Bool.fetchOne(
                    db, sql: "SELECT 1 FROM videos WHERE id = ? AND status = 'published'", arguments: [id]) == true
            else {
                return nil
            }
            return try Self.video(id: id, db)
        }
    }

    /// A published video's feed item, or nil.
    package func item(id: String) async throws(CatalogError) -> FeedItem? {
        try await read { db in
            guard
                let row = try Row.fetchOne(
                    db.cachedStatement(
                        sql: """
                            SELECT published_at, item_record FROM videos WHERE id = ? AND status = 'published'
                            """), arguments: [id])
            else { return nil }
            return FeedItem(id: id, publishedAt: row[0], record: try Self.record(stored: row[1], id: id, db))
        }
    }

    /// The stored record, or (cleared by an edit outside Reel) the record encoded again from the video's columns.
    static func record(stored: Data?, id: String, _ db: Database) throws -> [UInt8] {
        if let stored { return Array(stored) }
        guard let video = try video(id: id, db) else {
            throw CatalogError(.other, "video \(id) vanished inside a read")
        }
        return FeedVideoRecord.encode(video)
    }

    /// A video row and its renditions (in `FeedVideo.Rendition.precedes` order), whatever its status. `hints: false`,
    /// `storyboards: false`, `codecs: false`, `loudness: false` and `stage: false` read a catalog from before migrations v6, v7, v10, v17
    /// and v15.
    static func video(
        id: String, _ db: Database, hints: Bool = true, storyboards: Bool = true, codecs: Bool = true,
        loudness: Bool = true, stage: Bool = true, post: Bool = true, visibility: Bool = true
    ) throws -> FeedVideo? {
        let videoSQL = storyboards ? Self.videoSQL : Self.videoSQLWithoutStoryboards
        guard let row = try Row.fetchOne(db.cachedStatement(sql: videoSQL), arguments: [id]) else { return nil }
        var sql = Self.renditionsSQL
        if !hints { sql = sql.replacingOccurrences(of: ", init_bytes, segment_duration_ms, first_segments", with: "") }
        if !codecs {
            sql = sql.replacingOccurrences(
                of: "video_codec, crf, target_ssim_y", with: "NULL AS video_codec, NULL AS crf, NULL AS target_ssim_y")
        }
        let renditions = try Row.fetchAll(db.cachedStatement(sql: sql), arguments: [id]).map {
            FeedVideo.Rendition(
                rung: $0["rung"], width: $0["width"], height: $0["height"], bandwidth: $0["bandwidth"],
                averageBandwidth: $0["average_bandwidth"], codecs: $0["codecs"], segments: $0["segments"],
                videoCodec: $0["video_codec"], crf: $0["crf"], targetSSIMY: $0["target_ssim_y"],
                prefetch: hints
                    ? PrefetchHintColumns.hint(
                        initBytes: $0["init_bytes"],
                        segmentDuration: $0["segment_duration_ms"],
                        firstSegments: $0["first_segments"]) : nil)
        }.sorted(by: FeedVideo.Rendition.precedes)
        return FeedVideo(
            id: row[0], publishedAt: row[1] ?? 0, durationMilliseconds: row[2], width: row[3], height: row[4],
            masterPath: row[5], posterJPEGPath: row[6], posterWebPPath: row[7], renditions: renditions,
            storyboard: storyboards ? Self.storyboard(row) : nil,
            loudness: loudness
                ? LoudnessColumn.loudness(
                    try String.fetchOne(
                        db.cachedStatement(sql: "SELECT loudness FROM videos WHERE id = ?"), arguments: [id]))
                : nil,
            stage: stage
                ? try String.fetchOne(db.cachedStatement(sql: "SELECT stage FROM videos WHERE id = ?"), arguments: [id])
                    .flatMap(VideoStage.init(rawValue:)) ?? .published : .published,
            post: post
                ? try Row.fetchOne(
                    db.cachedStatement(
                        sql: visibility
                            ? "SELECT caption, title, creator, visibility FROM videos WHERE id = ?"
                            : "SELECT caption, title, creator, 'public' FROM videos WHERE id = ?"), arguments: [id]
                ).map {
                    PostFacts(
                        caption: $0[0] ?? "", title: $0[1], creator: $0[2],
                        visibility: Visibility(rawValue: $0[3]) ?? .public)
                } ?? PostFacts()
                : PostFacts(),
            accessEpoch: visibility
                ? try Int64.fetchOne(
                    db.cachedStatement(sql: "SELECT access_epoch FROM videos WHERE id = ?"), arguments: [id]) ?? 0
                : 0)
    }

    /// The storyboard columns (8 to 14 of `videoSQL`), or nil when any is NULL (published before storyboards).
    static func storyboard(_ row: Row) -> Storyboard? {
        guard let vtt: String = row[8], let image: String = row[9], let interval: Int = row[10],
            let tileWidth: Int = row[11],
            let tileHeight: Int = row[12], let columns: Int = row[13], let count: Int = row[14]
        else { return nil }
        return Storyboard(
            vttPath: vtt, imagePath: image, intervalSeconds: interval, tileWidth: tileWidth, tileHeight: tileHeight,
            columns: columns, count: count)
    }

    /// The feed query's plan, for the test that proves it seeks through the index.
    package func pagePlan() async throws(CatalogError) -> [PlanStep] {
        try await read { db in
            try Row.fetchAll(db, sql: "EXPLAIN QUERY PLAN " + Self.pageSQL, arguments: [Int64.max, "", 10]).map {
                PlanStep(id: $0["id"], parent: $0["parent"], detail: $0["detail"])
            }
        }
    }

    package func videoCount() async throws(CatalogError) -> Int {
        try await read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM videos") ?? 0 }
    }

    /// One trivial read: proves the catalog opens and answers (`/healthz`).
    package func ping() async throws(CatalogError) {
        _ = try await read { db in try Int.fetchOne(db, sql: "SELECT 1 FROM videos LIMIT 1") }
    }
}
