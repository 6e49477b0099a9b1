package import Catalog
internal import Foundation
internal import GRDB
package import ViewerAnalytics

/// The engaging feed's rankings (`FeedRanking`).
extension SQLiteCatalogEngine {
    package func rankingCandidates() async throws(CatalogError) -> [EngagingOrder.Candidate] {
        try await read { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT id, published_at FROM videos
                    WHERE status = 'published' AND visibility = 'public' AND published_at IS NOT NULL
                    """
            ).map { EngagingOrder.Candidate(id: $0[0], publishedAt: $0[1]) }
        }
    }

    package func storeRanking(_ videos: [String], madeAt: Int64) async throws(CatalogError) -> Int64 {
        let json = try RankingJSON.encode(videos)
        return try await write { db in
            try db.execute(
                sql: "INSERT INTO feed_rankings (made_at, videos) VALUES (?, ?)", arguments: [madeAt, json])
            return db.lastInsertedRowID
        }
    }

    package func latestRankingNumber() async throws(CatalogError) -> Int64? {
        try await read { db in try Int64.fetchOne(db, sql: "SELECT max(ranking) FROM feed_rankings") }
    }

    package func ranking(number: Int64) async throws(CatalogError) -> StoredRanking? {
        let row = try await read { db in
            try Row.fetchOne(
                db, sql: "SELECT made_at, videos FROM feed_rankings WHERE ranking = ?", arguments: [number]
            )
            .map { (madeAt: $0[0] as Int64, json: $0[1] as String) }
        }
        guard let row else { return nil }
        return StoredRanking(number: number, madeAt: row.madeAt, videos: try RankingJSON.decode(row.json))
    }

    package func deleteRankings(madeBefore: Int64) async throws(CatalogError) -> Int {
        try await write { db in
            try db.execute(
                sql: """
                    DELETE FROM feed_rankings
                    WHERE made_at < ? AND ranking < (SELECT max(ranking) FROM feed_rankings)
                    """, arguments: [madeBefore])
            return db.changesCount
        }
    }

    package func publishedItems(ids: [String]) async throws(CatalogError) -> [String: FeedItem] {
        guard !ids.isEmpty else { return [:] }
        return try await read { db in
            var items: [String: FeedItem] = [:]
            let select = try db.cachedStatement(
                sql: """
                    SELECT published_at, item_record FROM videos
                    WHERE id = ? AND status = 'published' AND visibility = 'public'
                    """)
            for id in Set(ids) {
                guard let row = try Row.fetchOne(select, arguments: [id]) else { continue }
                items[id] = FeedItem(id: id, publishedAt: row[0], record: try Self.record(stored: row[1], id: id, db))
            }
            return items
        }
    }
}
