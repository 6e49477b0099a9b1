package import Catalog
internal import GRDB

/// Deleting a post (`PostRemoval`): the catalog's rows in one write transaction, a tombstone left in their place.
extension SQLiteCatalogEngine {
    package func uploaderTokenID(ofVideo id: String) async throws(CatalogError) -> String? {
        try await read { db in
            try String.fetchOne(
                db, sql: "SELECT token_id FROM uploads WHERE job_id = ? ORDER BY created_at LIMIT 1", arguments: [id])
        }
    }

    package func removePost(id: String, reason: String, now: Int64) async throws(CatalogError) -> PostRemovalOutcome {
        try await write { db in
            if let tombstone = try Self.tombstone(id: id, db) { return .alreadyRemoved(tombstone) }
            let video = try Bool.fetchOne(db, sql: "SELECT 1 FROM videos WHERE id = ?", arguments: [id]) ?? false
            let kind = try String.fetchOne(db, sql: "SELECT kind FROM jobs WHERE id = ?", arguments: [id])
            let job = kind != nil && kind != FeedJob.Kind.image.rawValue
            guard video || job else { return .notFound }
            let renditions =
                try Int.fetchOne(db, sql: "SELECT count(*) FROM renditions WHERE video_id = ?", arguments: [id]) ?? 0
            try db.execute(sql: "DELETE FROM videos WHERE id = ?", arguments: [id])  // renditions cascade
            try db.execute(sql: "DELETE FROM viewer_events WHERE video = ?", arguments: [id])
            let events = db.changesCount
            try db.execute(sql: "DELETE FROM video_stats WHERE video = ?", arguments: [id])
            let stats = db.changesCount > 0
            if job { try db.execute(sql: "DELETE FROM jobs WHERE id = ?", arguments: [id]) }
            try db.execute(sql: "DELETE FROM uploads WHERE job_id = ?", arguments: [id])
            let uploads = db.changesCount
            try db.execute(
                sql: "INSERT INTO tombstones (id, deleted_at, reason) VALUES (?, ?, ?)", arguments: [id, now, reason])
            if video { try Self.bumpGeneration(db) }
            try Self.enqueue(.deleted(id: id, reason: reason, now: now), db)
            return .removed(
                .init(
                    video: video, renditions: renditions, viewerEvents: events, stats: stats, job: job,
                    uploads: uploads))
        }
    }

    package func tombstone(id: String) async throws(CatalogError) -> Tombstone? {
        try await read { db in try Self.tombstone(id: id, db) }
    }

    package func isDeleted(id: String) async throws(CatalogError) -> Bool {
        try await tombstone(id: id) != nil
    }

    package func tombstonesAwaitingMedia(limit: Int) async throws(CatalogError) -> [Tombstone] {
        try await read { db in
            try Row.fetchAll(
                db, sql: "SELECT * FROM tombstones WHERE media_removed_at IS NULL ORDER BY deleted_at, id LIMIT ?",
                arguments: [limit]
            ).map(Self.tombstone(row:))
        }
    }

    package func markMediaRemoved(id: String, now: Int64) async throws(CatalogError) {
        try await write { db in
            try db.execute(
                sql: "UPDATE tombstones SET media_removed_at = coalesce(media_removed_at, ?) WHERE id = ?",
                arguments: [now, id])
        }
    }

    package func purgeTombstones(deletedBefore: Int64) async throws(CatalogError) -> Int {
        try await write { db in
            try db.execute(
                sql: "DELETE FROM tombstones WHERE deleted_at < ? AND media_removed_at IS NOT NULL",
                arguments: [deletedBefore])
            return db.changesCount
        }
    }

    static func tombstone(id: String, _ db: Database) throws -> Tombstone? {
        try Row.fetchOne(db, sql: "SELECT * FROM tombstones WHERE id = ?", arguments: [id]).map(tombstone(row:))
    }

    static func tombstone(row: Row) -> Tombstone {
        Tombstone(
            id: row["id"], deletedAt: row["deleted_at"], reason: row["reason"], mediaRemovedAt: row["media_removed_at"])
    }
}
