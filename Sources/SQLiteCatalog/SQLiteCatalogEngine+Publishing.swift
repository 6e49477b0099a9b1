package import Catalog
internal import Foundation
internal import GRDB
internal import MediaModel

/// Making media visible. Each call is one transaction: the media row(s) and the job's `published` state together, so
/// a reader sees all of it or none. The caller has already put every file in place.
extension SQLiteCatalogEngine {
    /// A video outside any job (tests, imports).
    package func publish(_ video: PublishedVideo) async throws(CatalogError) {
        try await write { db in
            try Self.insert(video, db)
            try Self.bumpGeneration(db)
        }
    }

    package func publish(_ video: PublishedVideo, lease: JobLease, now: Int64) async throws(CatalogError) {
        // The job's row first: a lost lease refuses before the video's unique hash could (the new owner may have
        // published the same bytes), so the caller learns the true reason.
        try await write { db in
            try Self.finish(
                lease, state: .published, kind: .video, mediaID: video.id, reason: nil, message: nil, now: now, db)
            guard db.changesCount == 1 else { throw try Self.leaseLost(lease, db) }
            var video = video
            video.stage = .published
            try Self.replacePlayable(&video, db)
            try Self.insert(video, db)
            try Self.bumpGeneration(db)
            try Self.enqueue(.video(.published, video, jobID: lease.id, now: now), db)
        }
    }

    package func publishPlayable(_ video: PublishedVideo, lease: JobLease, now: Int64) async throws(CatalogError) {
        try await write { db in
            try db.execute(
                sql: """
                    UPDATE jobs SET media_id = ?, updated_at = ?
                    WHERE id = ? AND epoch = ? AND owner = ? AND state = 'processing'
                    """,
                arguments: [video.id, now] + Self.fence(lease))
            guard db.changesCount == 1 else { throw try Self.leaseLost(lease, db) }
            let published = try Bool.fetchOne(
                db, sql: "SELECT stage = 'published' FROM videos WHERE id = ?", arguments: [video.id])
            guard published != true else { return }
            var video = video
            video.stage = .playable
            try Self.replacePlayable(&video, db)
            try Self.insert(video, db)
            try Self.bumpGeneration(db)
            // Announced once: a later claim's provisional rendition replaces the row without a second event.
            if published == nil { try Self.enqueue(.video(.playable, video, jobID: lease.id, now: now), db) }
        }
    }

    package func videoStage(id: String) async throws(CatalogError) -> (stage: VideoStage, masterPath: String?)? {
        try await read { db in
            guard
                let row = try Row.fetchOne(
                    db, sql: "SELECT stage, master_path FROM videos WHERE id = ?", arguments: [id]),
                let stage = VideoStage(rawValue: row[0])
            else { return nil }
            return (stage, row[1])
        }
    }

    /// A `playable` row of `video` goes (its renditions with it), and `video` takes its place in the feed, with the
    /// visibility and access epoch the post has now (a `PATCH` may have changed them while its ladder was made).
    static func replacePlayable(_ video: inout PublishedVideo, _ db: Database) throws {
        guard
            let row = try Row.fetchOne(
                db,
                sql: "SELECT published_at, visibility, access_epoch FROM videos WHERE id = ? AND stage = 'playable'",
                arguments: [video.id])
        else { return }
        video.publishedAt = row[0]
        video.post.visibility = Visibility(rawValue: row[1]) ?? .private
        video.accessEpoch = row[2]
        try db.execute(sql: "DELETE FROM videos WHERE id = ?", arguments: [video.id])
    }

    package func publish(_ image: PublishedImage, lease: JobLease, now: Int64) async throws(CatalogError) {
        try await write { db in
            try Self.finish(
                lease, state: .published, kind: .image, mediaID: image.id, reason: nil, message: nil, now: now, db)
            guard db.changesCount == 1 else { throw try Self.leaseLost(lease, db) }
            try db.execute(
                sql: """
                    INSERT INTO images (id, created_at, width, height, bytes, path, content_hash) VALUES (?, ?, ?, ?, ?, ?, ?)
                    """,
                arguments: [
                    image.id, image.createdAt, image.width, image.height, image.bytes, image.path, image.contentHash,
                ])
        }
    }

    /// A byte-identical upload of something already published: the job points at the existing media.
    package func finishDuplicate(_ lease: JobLease, of media: PublishedMedia, now: Int64) async throws(CatalogError) {
        try await write { db in
            try Self.finish(
                lease, state: .published, kind: media.kind, mediaID: media.id, reason: .duplicate,
                message: "byte-identical to the already published \(media.kind.rawValue) \(media.id)", now: now, db)
            guard db.changesCount == 1 else { throw try Self.leaseLost(lease, db) }
            if media.kind == .video { try Self.enqueue(.duplicate(jobID: lease.id, of: media.id, now: now), db) }
        }
    }

    /// The published video or image with these bytes, if any.
    package func publishedMedia(contentHash: String) async throws(CatalogError) -> PublishedMedia? {
        try await read { db in
            if let id = try String.fetchOne(
                db, sql: "SELECT id FROM videos WHERE content_hash = ?", arguments: [contentHash])
            {
                return PublishedMedia(kind: .video, id: id)
            }
            if let id = try String.fetchOne(
                db, sql: "SELECT id FROM images WHERE content_hash = ?", arguments: [contentHash])
            {
                return PublishedMedia(kind: .image, id: id)
            }
            return nil
        }
    }

    package func isPublished(mediaID: String) async throws(CatalogError) -> Bool {
        try await read { db in
            try Bool.fetchOne(
                db,
                sql: "SELECT EXISTS (SELECT 1 FROM videos WHERE id = ?) OR EXISTS (SELECT 1 FROM images WHERE id = ?)",
                arguments: [mediaID, mediaID]) ?? false
        }
    }

    /// The statements that insert a video and its rendered feed item: publishing and seeding both go through them. The caller bumps the
    /// catalog generation once in the same transaction.
    static func insert(_ video: PublishedVideo, _ db: Database) throws {
        try db.cachedStatement(
            sql: """
                INSERT INTO videos (id, status, created_at, published_at, duration_ms, width, height, content_hash, source,
                                    master_path, poster_jpeg_path, poster_webp_path, storyboard_vtt_path, storyboard_image_path,
                                    storyboard_interval_s, storyboard_tile_width, storyboard_tile_height, storyboard_columns,
                                    storyboard_count, loudness, stage, caption, title, creator, visibility, access_epoch)
                VALUES (?, 'published', ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """
        ).execute(arguments: [
            video.id, video.createdAt, video.publishedAt, video.durationMilliseconds, video.width,
            video.height, video.contentHash, video.sourceJSON, video.masterPath, video.posterJPEGPath,
            video.posterWebPPath, video.storyboard?.vttPath, video.storyboard?.imagePath,
            video.storyboard?.intervalSeconds, video.storyboard?.tileWidth, video.storyboard?.tileHeight,
            video.storyboard?.columns, video.storyboard?.count, LoudnessColumn.text(video.loudness),
            video.stage.rawValue, video.post.caption.isEmpty ? nil : video.post.caption, video.post.title,
            video.post.creator, video.post.visibility.rawValue, video.accessEpoch,
        ])
        let rendition = try db.cachedStatement(
            sql: """
                INSERT INTO renditions (video_id, rung, width, height, bandwidth, average_bandwidth, codecs, segments,
                                        init_bytes, segment_duration_ms, first_segments, video_codec, crf, target_ssim_y)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """)
        for item in video.renditions {
            try rendition.execute(arguments: [
                video.id, item.rung, item.width, item.height, item.bandwidth, item.averageBandwidth,
                item.codecs, item.segments, item.prefetch?.initBytes,
                item.prefetch?.segmentDurationMilliseconds,
                item.prefetch.map {
                    PrefetchHintColumns.firstSegmentsColumn($0.firstSegments)
                },
                item.videoCodec, item.crf, item.targetSSIMY,
            ])
        }
        // Written last: the renditions' insert triggers clear a stored record (edits outside Reel go stale).
        try db.cachedStatement(sql: "UPDATE videos SET item_record = ? WHERE id = ?")
            .execute(arguments: [Data(FeedVideoRecord.encode(video.feedVideo)), video.id])
    }
}
