public import GRDB

extension FeedStore {
    /// Makes a video visible: its row and renditions in one transaction, so a reader sees all of it or none.
    /// The caller has already put every file in place.
    public func publish(_ video: PublishedVideo) throws {
        try database.pool.write { db in try insert(video, db) }
    }

    func insert(_ video: PublishedVideo, _ db: Database) throws {
        try db.execute(sql: """
            INSERT INTO videos (id, status, created_at, published_at, duration_ms, width, height, content_hash, source,
                                master_path, poster_jpeg_path, poster_webp_path)
            VALUES (?, 'published', ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """, arguments: [video.id, video.createdAt, video.publishedAt, video.durationMilliseconds, video.width, video.height,
                             video.contentHash, video.source, video.masterPath, video.posterJPEGPath, video.posterWebPPath])
        for rendition in video.renditions {
            try db.execute(sql: """
                INSERT INTO renditions (video_id, rung, width, height, bandwidth, average_bandwidth, codecs, segments)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                """, arguments: [video.id, rendition.rung, rendition.width, rendition.height, rendition.bandwidth,
                                 rendition.averageBandwidth, rendition.codecs, rendition.segments])
        }
    }
}
