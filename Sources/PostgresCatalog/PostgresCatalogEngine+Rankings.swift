package import Catalog
internal import PostgresNIO
package import ViewerAnalytics

/// The engaging feed's rankings, as `SQLiteCatalogEngine+Rankings` keeps them: every feed server on this catalog pages
/// through the same stored rankings.
extension PostgresCatalogEngine {
    package func rankingCandidates() async throws(CatalogError) -> [EngagingOrder.Candidate] {
        let operation = "read the published videos to rank"
        let rows = try await rows(
            operation,
            """
            SELECT id, published_at FROM videos
            WHERE status = 'published' AND visibility = 'public' AND published_at IS NOT NULL
            """)
        return try Self.decode(operation) {
            try rows.map {
                EngagingOrder.Candidate(
                    id: try $0.value("id", as: String.self), publishedAt: try $0.value("published_at", as: Int64.self))
            }
        }
    }

    package func storeRanking(_ videos: [String], madeAt: Int64) async throws(CatalogError) -> Int64 {
        let json = try RankingJSON.encode(videos)
        let operation = "store a ranking of \(videos.count) videos"
        let rows = try await rows(
            operation, "INSERT INTO feed_rankings (made_at, videos) VALUES (\(madeAt), \(json)) RETURNING ranking")
        let number = try Self.decode(operation) { try rows.first?.value("ranking", as: Int64.self) }
        guard let number else { throw CatalogError(.other, "\(operation): no ranking number came back") }
        return number
    }

    package func latestRankingNumber() async throws(CatalogError) -> Int64? {
        let operation = "read the newest ranking's number"
        let rows = try await rows(operation, "SELECT max(ranking) AS ranking FROM feed_rankings")
        return try Self.decode(operation) { try rows.first?.value("ranking", as: Int64?.self) ?? nil }
    }

    package func ranking(number: Int64) async throws(CatalogError) -> StoredRanking? {
        let operation = "read ranking \(number)"
        let rows = try await rows(operation, "SELECT made_at, videos FROM feed_rankings WHERE ranking = \(number)")
        let row = try Self.decode(operation) {
            try rows.first.map {
                (madeAt: try $0.value("made_at", as: Int64.self), json: try $0.value("videos", as: String.self))
            }
        }
        guard let row else { return nil }
        return StoredRanking(number: number, madeAt: row.madeAt, videos: try RankingJSON.decode(row.json))
    }

    package func deleteRankings(madeBefore: Int64) async throws(CatalogError) -> Int {
        let logger = self.logger
        return try await withConnection("delete the rankings made before \(madeBefore)") { connection in
            try await connection.count(
                """
                DELETE FROM feed_rankings
                WHERE made_at < \(madeBefore) AND ranking < (SELECT max(ranking) FROM feed_rankings)
                RETURNING ranking
                """, logger: logger)
        }
    }

    package func publishedItems(ids: [String]) async throws(CatalogError) -> [String: FeedItem] {
        guard !ids.isEmpty else { return [:] }
        let wanted = Array(Set(ids))
        let logger = self.logger
        return try await snapshot("read the feed items of \(wanted.count) videos") { connection in
            var items: [String: FeedItem] = [:]
            let rows = try await connection.rows(
                """
                SELECT id, published_at, item_record FROM videos
                WHERE id = ANY(\(wanted)) AND status = 'published' AND visibility = 'public'
                """, logger: logger)
            for row in rows {
                let id = try row.value("id", as: String.self)
                let record = try await Self.record(
                    stored: row.value("item_record", as: ByteBuffer?.self), id: id, connection, logger: logger)
                items[id] = FeedItem(
                    id: id, publishedAt: try row.value("published_at", as: Int64?.self) ?? 0, record: record)
            }
            return items
        }
    }
}
