package import Catalog
internal import Logging
internal import PostgresNIO

/// Deleting a post, as `SQLiteCatalogEngine+PostRemoval` does, in one transaction. The video's and the job's rows are
/// locked first: a second deletion at once waits for the first, then finds its tombstone.
extension PostgresCatalogEngine {
    package func uploaderTokenID(ofVideo id: String) async throws(CatalogError) -> String? {
        let operation = "read the uploader of video \(id)"
        let rows = try await rows(
            operation, "SELECT token_id FROM uploads WHERE job_id = \(id) ORDER BY created_at LIMIT 1")
        return try Self.decode(operation) { try rows.first?.value("token_id", as: String.self) }
    }

    package func removePost(id: String, reason: String, now: Int64) async throws(CatalogError) -> PostRemovalOutcome {
        try await transaction("remove post \(id)") { connection in
            let logger = self.logger
            if let tombstone = try await Self.tombstone(id: id, connection, logger: logger) {
                return .alreadyRemoved(tombstone)
            }
            let video =
                try await connection.count(
                    "SELECT 1 FROM videos WHERE id = \(id) FOR UPDATE", logger: logger) == 1
            let kind = try await connection.rows("SELECT kind FROM jobs WHERE id = \(id) FOR UPDATE", logger: logger)
                .first?.value("kind", as: String.self)
            let job = kind != nil && kind != FeedJob.Kind.image.rawValue
            guard video || job else {
                // A deletion that held the rows meanwhile has committed its tombstone.
                if let tombstone = try await Self.tombstone(id: id, connection, logger: logger) {
                    return .alreadyRemoved(tombstone)
                }
                return .notFound
            }
            let renditions = try await connection.count(
                "SELECT 1 FROM renditions WHERE video_id = \(id)", logger: logger)
            try await connection.query("DELETE FROM videos WHERE id = \(id)", logger: logger)
            let events = try await connection.count(
                "DELETE FROM viewer_events WHERE video = \(id) RETURNING id", logger: logger)
            let stats =
                try await connection.count(
                    "DELETE FROM video_stats WHERE video = \(id) RETURNING video", logger: logger) > 0
            if job { try await connection.query("DELETE FROM jobs WHERE id = \(id)", logger: logger) }
            let uploads = try await connection.count(
                "DELETE FROM uploads WHERE job_id = \(id) RETURNING id", logger: logger)
            try await connection.query(
                "INSERT INTO tombstones (id, deleted_at, reason) VALUES (\(id), \(now), \(reason))", logger: logger)
            if video { try await connection.query(PostgresQuery(unsafeSQL: Self.bumpGenerationSQL), logger: logger) }
            try await Self.enqueue(.deleted(id: id, reason: reason, now: now), connection, logger: logger)
            return .removed(
                .init(
                    video: video, renditions: renditions, viewerEvents: events, stats: stats, job: job,
                    uploads: uploads))
        }
    }

    package func tombstone(id: String) async throws(CatalogError) -> Tombstone? {
        let operation = "read the tombstone of \(id)"
        let rows = try await rows(operation, "SELECT * FROM tombstones WHERE id = \(id)")
        return try Self.decode(operation) { try rows.first.map(Self.tombstone(row:)) }
    }

    package func isDeleted(id: String) async throws(CatalogError) -> Bool {
        try await tombstone(id: id) != nil
    }

    package func tombstonesAwaitingMedia(limit: Int) async throws(CatalogError) -> [Tombstone] {
        let operation = "read the tombstones awaiting media removal"
        let rows = try await rows(
            operation,
            "SELECT * FROM tombstones WHERE media_removed_at IS NULL ORDER BY deleted_at, id LIMIT \(Int64(limit))")
        return try Self.decode(operation) { try rows.map(Self.tombstone(row:)) }
    }

    package func markMediaRemoved(id: String, now: Int64) async throws(CatalogError) {
        _ = try await rows(
            "mark the media of \(id) removed",
            "UPDATE tombstones SET media_removed_at = coalesce(media_removed_at, \(now)) WHERE id = \(id)")
    }

    package func purgeTombstones(deletedBefore: Int64) async throws(CatalogError) -> Int {
        try await rows(
            "purge tombstones",
            """
            DELETE FROM tombstones WHERE deleted_at < \(deletedBefore) AND media_removed_at IS NOT NULL RETURNING id
            """
        ).count
    }

    static func tombstone(id: String, _ connection: PostgresConnection, logger: Logger) async throws -> Tombstone? {
        try await connection.rows("SELECT * FROM tombstones WHERE id = \(id)", logger: logger).first.map(
            tombstone(row:))
    }

    static func tombstone(row: PostgresRandomAccessRow) throws -> Tombstone {
        Tombstone(
            id: try row.value("id"), deletedAt: try row.value("deleted_at"), reason: try row.value("reason"),
            mediaRemovedAt: try row.value("media_removed_at"))
    }
}
