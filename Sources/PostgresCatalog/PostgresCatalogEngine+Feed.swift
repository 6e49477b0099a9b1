package import Catalog
internal import Logging
package import MediaModel
internal import PostgresNIO

/// The feed's reads: the same statements as `SQLiteCatalogEngine+Feed`, and one read snapshot where SQLite has one.
extension PostgresCatalogEngine {
    /// The page and its generation in one statement, so one snapshot: the generation row always, joined to the
    /// page's rows (none on an empty page), newest first, keyset on (published_at, id).
    static let pageSQL = """
        SELECT g.value AS generation, v.published_at, v.id, v.item_record
        FROM catalog_generation g
        LEFT JOIN LATERAL (
            SELECT published_at, id, item_record FROM videos
            WHERE status = 'published' AND visibility = 'public' AND published_at IS NOT NULL AND (published_at, id) < ($1, $2)
            ORDER BY published_at DESC, id DESC
            LIMIT $3
        ) v ON true
        WHERE g.id = 1
        ORDER BY v.published_at DESC, v.id DESC
        """

    static let videoSQL = """
        SELECT id, published_at, duration_ms, width, height, master_path, poster_jpeg_path, poster_webp_path,
               storyboard_vtt_path, storyboard_image_path, storyboard_interval_s, storyboard_tile_width, storyboard_tile_height,
               storyboard_columns, storyboard_count
        FROM videos WHERE id = $1
        """

    static let renditionsSQL = """
        SELECT rung, width, height, bandwidth, average_bandwidth, codecs, segments, init_bytes, segment_duration_ms, first_segments,
               video_codec, crf, target_ssim_y
        FROM renditions WHERE video_id = $1
        """

    package func pageWithGeneration(
        limit: Int, after cursor: FeedPosition?
    ) async throws(CatalogError) -> (page: FeedPage, generation: Int64) {
        precondition((1...FeedLimits.maximumPageSize).contains(limit), "the caller validates the limit")
        let start = cursor ?? FeedPosition.start
        let logger = self.logger
        return try await withConnection("read a feed page after \(start.publishedAt)/\(start.id)") { connection in
            var bindings = PostgresBindings(capacity: 3)
            bindings.append(start.publishedAt)
            bindings.append(start.id)
            bindings.append(Int64(limit + 1))
            // Collected on the connection's event loop and handed over once: iterating the async row sequence hops
            // between the event loop and the concurrency pool for the rows, which cost more than the query.
            let collected: EventLoopFuture<PostgresQueryResult> = connection.query(
                PostgresQuery(unsafeSQL: Self.pageSQL, binds: bindings),
                logger: logger)
            let rows = try await collected.get().rows.map {
                try FeedRow($0.decode((Int64, Int64?, String?, ByteBuffer?).self))
            }
            if let page = Self.page(rows, limit: limit) { return (page.page, page.generation) }
            // A row whose record was cleared by an edit outside Reel is encoded again from its columns.
            var items: [FeedItem] = []
            items.reserveCapacity(rows.count)
            for row in rows {
                guard let id = row.id, let publishedAt = row.publishedAt else { continue }
                let record = try await Self.record(stored: row.record, id: id, connection, logger: logger)
                items.append(FeedItem(id: id, publishedAt: publishedAt, record: record))
            }
            return Self.page(items, generation: rows.first?.generation ?? 0, limit: limit)
        }
    }

    /// A row of `pageSQL`: the generation always; the rest NULL on an empty page.
    struct FeedRow {
        let generation: Int64
        let publishedAt: Int64?
        let id: String?
        let record: ByteBuffer?

        init(_ columns: (Int64, Int64?, String?, ByteBuffer?)) {
            (generation, publishedAt, id, record) = columns
        }
    }

    /// The page of `pageSQL`'s rows (which ask for one item more than `limit`, to know whether a next page exists),
    /// or nil when a stored record needs encoding again from its columns.
    static func page(_ rows: [FeedRow], limit: Int) -> GeneratedPage? {
        var items: [FeedItem] = []
        items.reserveCapacity(rows.count)
        for row in rows {
            guard let id = row.id, let publishedAt = row.publishedAt else { continue }
            guard let record = row.record else { return nil }
            items.append(FeedItem(id: id, publishedAt: publishedAt, record: Array(record.readableBytesView)))
        }
        let page = page(items, generation: rows.first?.generation ?? 0, limit: limit)
        return GeneratedPage(page: page.page, generation: page.generation)
    }

    private static func page(_ items: [FeedItem], generation: Int64, limit: Int) -> (page: FeedPage, generation: Int64)
    {
        let next =
            items.count > limit ? FeedPosition(publishedAt: items[limit - 1].publishedAt, id: items[limit - 1].id) : nil
        return (FeedPage(items: Array(items.prefix(limit)), next: next), generation)
    }

    /// The feed query's plan (`EXPLAIN`, one line a step), for the test that proves it seeks through `videos_feed`.
    package func pagePlan() async throws(CatalogError) -> [String] {
        let operation = "explain the feed query"
        var bindings = PostgresBindings()
        bindings.append(Int64.max)
        bindings.append("\u{10FFFF}")
        bindings.append(11)
        let rows = try await rows(operation, PostgresQuery(unsafeSQL: "EXPLAIN " + Self.pageSQL, binds: bindings))
        return try Self.decode(operation) { try rows.map { try $0.value("QUERY PLAN", as: String.self) } }
    }

    package func generation() async throws(CatalogError) -> Int64 {
        try await rows("read the catalog generation", "SELECT value FROM catalog_generation WHERE id = 1")
            .first.map { row throws(CatalogError) in
                try Self.decode("read the catalog generation") { try row.value("value", as: Int64.self) }
            } ?? 0
    }

    package func item(id: String) async throws(CatalogError) -> FeedItem? {
        let logger = self.logger
        return try await snapshot("read the feed item of video \(id)") { connection in
            guard
                let row = try await connection.rows(
                    """
                    SELECT published_at, item_record FROM videos WHERE id = \(id) AND status = 'published'
                    """, logger: logger
                ).first
            else { return nil }
            let record = try await Self.record(
                stored: row.value("item_record", as: ByteBuffer?.self), id: id, connection, logger: logger)
            return FeedItem(id: id, publishedAt: try row.value("published_at", as: Int64?.self) ?? 0, record: record)
        }
    }

    package func video(id: String) async throws(CatalogError) -> FeedVideo? {
        let logger = self.logger
        return try await snapshot("read video \(id)") { connection in
            guard
                try await connection.count(
                    "SELECT 1 FROM videos WHERE id = \(id) AND status = 'published'", logger: logger) == 1
            else {
                return nil
            }
            return try await Self.video(id: id, connection, logger: logger)
        }
    }

    package func publishedVideos() async throws(CatalogError) -> [FeedVideo] {
        let logger = self.logger
        return try await snapshot("read every published video") { connection in
            var videos: [FeedVideo] = []
            for row in try await connection.rows(
                """
                SELECT id FROM videos WHERE status = 'published' AND published_at IS NOT NULL
                ORDER BY published_at DESC, id DESC
                """, logger: logger)
            {
                if let video = try await Self.video(
                    id: try row.value("id", as: String.self), connection, logger: logger)
                {
                    videos.append(video)
                }
            }
            return videos
        }
    }

    package func videoCount() async throws(CatalogError) -> Int {
        try await rows("count the videos", "SELECT count(*) AS n FROM videos")
            .first.map { row throws(CatalogError) in
                try Self.decode("count the videos") { try row.value("n", as: Int.self) }
            } ?? 0
    }

    /// One trivial read: proves the server answers and the catalog is there (`/healthz`).
    package func ping() async throws(CatalogError) {
        _ = try await rows("ping the catalog", "SELECT 1 FROM videos LIMIT 1")
    }

    /// The stored record, or (cleared by an edit outside Reel) the record encoded again from the video's columns.
    static func record(
        stored: ByteBuffer?, id: String, _ connection: PostgresConnection, logger: Logger
    ) async throws -> [UInt8] {
        if let stored { return Array(stored.readableBytesView) }
        guard let video = try await video(id: id, connection, logger: logger) else {
            throw CatalogError(.other, "video \(id) vanished inside a read")
        }
        return FeedVideoRecord.encode(video)
    }

    /// A video row and its renditions (in `FeedVideo.Rendition.precedes` order, as on SQLite), whatever its status,
    /// on `connection`. `loudness: false`, `stage: false`, `post: false` and `visibility: false` read a catalog from
    /// before migrations v9, v11, v12 and v14.
    static func video(
        id: String, _ connection: PostgresConnection, logger: Logger, loudness: Bool = true, stage: Bool = true,
        post: Bool = true, visibility: Bool = true
    ) async throws -> FeedVideo? {
        guard
            let row = try await connection.rows(PostgresQuery(unsafeSQL: videoSQL, binds: binds(id)), logger: logger)
                .first
        else {
            return nil
        }
        var renditions: [FeedVideo.Rendition] = []
        for rendition in try await connection.rows(
            PostgresQuery(unsafeSQL: renditionsSQL, binds: binds(id)), logger: logger)
        {
            renditions.append(
                FeedVideo.Rendition(
                    rung: try rendition.value("rung"), width: try rendition.value("width"),
                    height: try rendition.value("height"),
                    bandwidth: try rendition.value("bandwidth"),
                    averageBandwidth: try rendition.value("average_bandwidth"),
                    codecs: try rendition.value("codecs"), segments: try rendition.value("segments"),
                    videoCodec: try rendition.value("video_codec"), crf: try rendition.value("crf"),
                    targetSSIMY: try rendition.value("target_ssim_y"),
                    prefetch: PrefetchHintColumns.hint(
                        initBytes: try rendition.value("init_bytes"),
                        segmentDuration: try rendition.value("segment_duration_ms"),
                        firstSegments: try rendition.value("first_segments"))))
        }
        renditions.sort(by: FeedVideo.Rendition.precedes)
        return FeedVideo(
            id: try row.value("id"), publishedAt: try row.value("published_at", as: Int64?.self) ?? 0,
            durationMilliseconds: try row.value("duration_ms"), width: try row.value("width"),
            height: try row.value("height"), masterPath: try row.value("master_path"),
            posterJPEGPath: try row.value("poster_jpeg_path"), posterWebPPath: try row.value("poster_webp_path"),
            renditions: renditions, storyboard: try storyboard(row),
            loudness: loudness
                ? LoudnessColumn.loudness(
                    try await connection.rows(
                        PostgresQuery(unsafeSQL: "SELECT loudness FROM videos WHERE id = $1", binds: binds(id)),
                        logger: logger
                    ).first?.value("loudness", as: String?.self))
                : nil,
            stage: stage
                ? try await connection.rows(
                    PostgresQuery(unsafeSQL: "SELECT stage FROM videos WHERE id = $1", binds: binds(id)), logger: logger
                ).first.map { try $0.value("stage", as: String.self) }.flatMap(VideoStage.init(rawValue:)) ?? .published
                : .published,
            post: post
                ? try await connection.rows(
                    PostgresQuery(
                        unsafeSQL: visibility
                            ? "SELECT caption, title, creator, visibility FROM videos WHERE id = $1"
                            : "SELECT caption, title, creator, 'public' AS visibility FROM videos WHERE id = $1",
                        binds: binds(id)),
                    logger: logger
                ).first.map {
                    PostFacts(
                        caption: try $0.value("caption", as: String?.self) ?? "",
                        title: try $0.value("title", as: String?.self),
                        creator: try $0.value("creator", as: String?.self),
                        visibility: Visibility(rawValue: try $0.value("visibility", as: String.self)) ?? .public)
                } ?? PostFacts()
                : PostFacts(),
            accessEpoch: visibility
                ? try await connection.rows(
                    PostgresQuery(unsafeSQL: "SELECT access_epoch FROM videos WHERE id = $1", binds: binds(id)),
                    logger: logger
                ).first?.value("access_epoch", as: Int64.self) ?? 0
                : 0)
    }

    /// The storyboard columns, or nil when any is NULL (published before storyboards).
    static func storyboard(_ row: PostgresRandomAccessRow) throws -> Storyboard? {
        guard let vtt = try row.value("storyboard_vtt_path", as: String?.self),
            let image = try row.value("storyboard_image_path", as: String?.self),
            let interval = try row.value("storyboard_interval_s", as: Int?.self),
            let tileWidth = try row.value("storyboard_tile_width", as: Int?.self),
            let tileHeight = try row.value("storyboard_tile_height", as: Int?.self),
            let columns = try row.value("storyboard_columns", as: Int?.self),
            let count = try row.value("storyboard_count", as: Int?.self)
        else { return nil }
        return Storyboard(
            vttPath: vtt, imagePath: image, intervalSeconds: interval, tileWidth: tileWidth, tileHeight: tileHeight,
            columns: columns, count: count)
    }

    static func binds(_ id: String) -> PostgresBindings {
        var bindings = PostgresBindings()
        bindings.append(id)
        return bindings
    }

    /// Decodes outside a connection's closure, as a `CatalogError` naming the operation.
    static func decode<T>(_ operation: String, _ body: () throws -> T) throws(CatalogError) -> T {
        do { return try body() } catch { throw classify(error, operation: operation) }
    }
}
