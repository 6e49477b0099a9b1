package import Catalog
internal import Logging
internal import MediaModel
internal import PostgresNIO

/// Making media visible, as `SQLiteCatalogEngine+Publishing` does: each call is one transaction, the media row(s) and the
/// job's `published` state together. A held job's row comes first, so a lost lease refuses (and rolls back) before
/// the media's unique content hash could.
extension PostgresCatalogEngine {
    /// Moves the catalog generation once per transaction: a row this transaction already bumped (its `xmin` is this
    /// transaction) is left alone, whether the bump came from here or from an edit trigger.
    static let bumpGenerationSQL =
        "UPDATE catalog_generation SET value = value + 1 WHERE id = 1 AND xmin <> pg_current_xact_id()::xid"

    package func publish(_ video: PublishedVideo) async throws(CatalogError) {
        try await transaction("publish video \(video.id)") { connection in
            try await Self.insert(video, connection, logger: self.logger)
            try await connection.query(PostgresQuery(unsafeSQL: Self.bumpGenerationSQL), logger: self.logger)
        }
    }

    package func publish(_ video: PublishedVideo, lease: JobLease, now: Int64) async throws(CatalogError) {
        try await transaction("publish video \(video.id) for \(lease)") { connection in
            let logger = self.logger
            guard
                try await Self.finish(
                    lease, state: .published, kind: .video, mediaID: video.id, reason: nil, message: nil,
                    now: now, connection, logger: logger) == 1
            else {
                throw try await Self.leaseLost(lease, connection, logger: logger)
            }
            var video = video
            video.stage = .published
            try await Self.replacePlayable(&video, connection, logger: logger)
            try await Self.insert(video, connection, logger: logger)
            try await connection.query(PostgresQuery(unsafeSQL: Self.bumpGenerationSQL), logger: logger)
            try await Self.enqueue(.video(.published, video, jobID: lease.id, now: now), connection, logger: logger)
        }
    }

    package func publishPlayable(_ video: PublishedVideo, lease: JobLease, now: Int64) async throws(CatalogError) {
        try await transaction("publish video \(video.id) as playable for \(lease)") { connection in
            let logger = self.logger
            guard
                try await connection.count(
                    """
                    UPDATE jobs SET media_id = \(video.id), updated_at = \(now)
                    WHERE id = \(lease.id) AND epoch = \(lease.epoch) AND owner = \(lease.owner) AND state = 'processing'
                    RETURNING id
                    """, logger: logger) == 1
            else {
                throw try await Self.leaseLost(lease, connection, logger: logger)
            }
            // The row, if any, is locked until the commit: a concurrent final publish waits for this one.
            let published = try await connection.rows(
                "SELECT stage FROM videos WHERE id = \(video.id) FOR UPDATE", logger: logger
            ).first.map { try $0.value("stage", as: String.self) == VideoStage.published.rawValue }
            guard published != true else { return }
            var video = video
            video.stage = .playable
            try await Self.replacePlayable(&video, connection, logger: logger)
            try await Self.insert(video, connection, logger: logger)
            try await connection.query(PostgresQuery(unsafeSQL: Self.bumpGenerationSQL), logger: logger)
            // Announced once: a later claim's provisional rendition replaces the row without a second event.
            if published == nil {
                try await Self.enqueue(.video(.playable, video, jobID: lease.id, now: now), connection, logger: logger)
            }
        }
    }

    package func videoStage(id: String) async throws(CatalogError) -> (stage: VideoStage, masterPath: String?)? {
        let operation = "read the stage of video \(id)"
        let rows = try await rows(operation, "SELECT stage, master_path FROM videos WHERE id = \(id)")
        return try Self.decode(operation) {
            guard let row = rows.first, let stage = VideoStage(rawValue: try row.value("stage", as: String.self))
            else { return nil }
            return (stage, try row.value("master_path", as: String?.self))
        }
    }

    /// A `playable` row of `video` goes (its renditions with it), and `video` takes its place in the feed.
    static func replacePlayable(
        _ video: inout PublishedVideo, _ connection: PostgresConnection, logger: Logger
    ) async throws {
        guard
            let row = try await connection.rows(
                """
                DELETE FROM videos WHERE id = \(video.id) AND stage = 'playable'
                RETURNING published_at, visibility, access_epoch
                """,
                logger: logger
            ).first
        else { return }
        // The post keeps its place, and the visibility and access epoch a PATCH may have given it meanwhile.
        video.publishedAt = try row.value("published_at", as: Int64?.self) ?? video.publishedAt
        video.post.visibility = Visibility(rawValue: try row.value("visibility", as: String.self)) ?? .private
        video.accessEpoch = try row.value("access_epoch", as: Int64.self)
    }

    package func publish(_ image: PublishedImage, lease: JobLease, now: Int64) async throws(CatalogError) {
        try await transaction("publish image \(image.id) for \(lease)") { connection in
            let logger = self.logger
            guard
                try await Self.finish(
                    lease, state: .published, kind: .image, mediaID: image.id, reason: nil, message: nil,
                    now: now, connection, logger: logger) == 1
            else {
                throw try await Self.leaseLost(lease, connection, logger: logger)
            }
            try await connection.query(
                """
                INSERT INTO images (id, created_at, width, height, bytes, path, content_hash)
                VALUES (\(image.id), \(image.createdAt), \(image.width), \(image.height), \(image.bytes), \(image.path), \(image.contentHash))
                """, logger: logger)
        }
    }

    package func finishDuplicate(_ lease: JobLease, of media: PublishedMedia, now: Int64) async throws(CatalogError) {
        try await fenced("finish as a duplicate", lease) { connection, logger in
            let changed = try await Self.finish(
                lease, state: .published, kind: media.kind, mediaID: media.id, reason: .duplicate,
                message: "byte-identical to the already published \(media.kind.rawValue) \(media.id)", now: now,
                connection, logger: logger)
            if changed == 1, media.kind == .video {
                try await Self.enqueue(.duplicate(jobID: lease.id, of: media.id, now: now), connection, logger: logger)
            }
            return changed
        }
    }

    package func publishedMedia(contentHash: String) async throws(CatalogError) -> PublishedMedia? {
        let logger = self.logger
        return try await snapshot("look up the media with content hash \(contentHash)") { connection in
            if let row = try await connection.rows(
                "SELECT id FROM videos WHERE content_hash = \(contentHash)", logger: logger
            ).first {
                return PublishedMedia(kind: .video, id: try row.value("id"))
            }
            if let row = try await connection.rows(
                "SELECT id FROM images WHERE content_hash = \(contentHash)", logger: logger
            ).first {
                return PublishedMedia(kind: .image, id: try row.value("id"))
            }
            return nil
        }
    }

    package func isPublished(mediaID: String) async throws(CatalogError) -> Bool {
        let operation = "check whether media \(mediaID) is published"
        let rows = try await rows(
            operation,
            """
            SELECT EXISTS (SELECT 1 FROM videos WHERE id = \(mediaID)) OR EXISTS (SELECT 1 FROM images WHERE id = \(mediaID)) AS published
            """)
        return try Self.decode(operation) { try rows.first?.value("published", as: Bool.self) ?? false }
    }

    /// The statements that insert a video, its renditions and its rendered feed item (written last: the renditions'
    /// insert trigger clears a stored item). Publishing and seeding both go through them; the caller bumps the
    /// catalog generation in the same transaction.
    static func insert(_ video: PublishedVideo, _ connection: PostgresConnection, logger: Logger) async throws {
        try await connection.query(
            """
            INSERT INTO videos (id, status, created_at, published_at, duration_ms, width, height, content_hash, source,
                                master_path, poster_jpeg_path, poster_webp_path, storyboard_vtt_path, storyboard_image_path,
                                storyboard_interval_s, storyboard_tile_width, storyboard_tile_height, storyboard_columns,
                                storyboard_count, loudness, stage, caption, title, creator, visibility, access_epoch)
            VALUES (\(video.id), 'published', \(video.createdAt), \(video.publishedAt), \(video.durationMilliseconds), \(video.width),
                    \(video.height), \(video.contentHash), \(video.sourceJSON), \(video.masterPath), \(video.posterJPEGPath),
                    \(video.posterWebPPath), \(video.storyboard?.vttPath), \(video.storyboard?.imagePath),
                    \(video.storyboard?.intervalSeconds), \(video.storyboard?.tileWidth), \(video.storyboard?.tileHeight),
                    \(video.storyboard?.columns), \(video.storyboard?.count), \(LoudnessColumn.text(video.loudness)),
                    \(video.stage.rawValue), \(video.post.caption.isEmpty ? nil : video.post.caption), \(video.post.title),
                    \(video.post.creator), \(video.post.visibility.rawValue), \(video.accessEpoch))
            """, logger: logger)
        for item in video.renditions {
            let firstSegments = item.prefetch.map { PrefetchHintColumns.firstSegmentsColumn($0.firstSegments) }
            try await connection.query(
                """
                INSERT INTO renditions (video_id, rung, width, height, bandwidth, average_bandwidth, codecs, segments,
                                        init_bytes, segment_duration_ms, first_segments, video_codec, crf, target_ssim_y)
                VALUES (\(video.id), \(item.rung), \(item.width), \(item.height), \(item.bandwidth), \(item.averageBandwidth),
                        \(item.codecs), \(item.segments), \(item.prefetch?.initBytes), \(item.prefetch?.segmentDurationMilliseconds),
                        \(firstSegments), \(item.videoCodec), \(item.crf), \(item.targetSSIMY))
                """, logger: logger)
        }
        let record = ByteBuffer(bytes: FeedVideoRecord.encode(video.feedVideo))
        try await connection.query(
            "UPDATE videos SET item_record = \(record) WHERE id = \(video.id)",
            logger: logger)
    }

    package func seed(count: Int, startingAt start: Int, batch: Int) async throws(CatalogError) {
        var done = 0
        while done < count {
            let size = min(max(1, batch), count - done)
            let first = start + done
            try await transaction("seed videos \(first)..<\(first + size)") { connection in
                for n in first..<(first + size) {
                    try await Self.insert(SyntheticVideos.video(n), connection, logger: self.logger)
                }
                try await connection.query(PostgresQuery(unsafeSQL: Self.bumpGenerationSQL), logger: self.logger)
            }
            done += size
        }
    }
}
