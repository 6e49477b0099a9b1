package import Catalog
internal import GRDB

extension SQLiteCatalogEngine {
    /// Every published video with its renditions and prefetch hints, newest first, in one read snapshot: what a
    /// tool that models the whole library (the prefetch simulator) starts from. The feed itself pages instead.
    package func publishedVideos() async throws(CatalogError) -> [FeedVideo] {
        try await read { db in
            let ids = try String.fetchAll(
                db,
                sql: """
                    SELECT id FROM videos WHERE status = 'published' AND published_at IS NOT NULL
                    ORDER BY published_at DESC, id DESC
                    """)
            return try ids.compactMap { try Self.video(id: $0, db) }
        }
    }
}
