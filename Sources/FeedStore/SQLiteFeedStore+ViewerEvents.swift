internal import Foundation
internal import GRDB
public import ViewerAnalytics

/// Viewers' events and the figures rolled up from them (`ViewerEventLog`).
extension SQLiteFeedStore {
    public func appendViewerEvents(_ events: [ReceivedViewerEvent]) async throws(CatalogError) {
        guard !events.isEmpty else { return }
        try await write { db in
            let insert = try db.cachedStatement(
                sql: """
                    INSERT INTO viewer_events (received_at, session, video, type, rendition, ms, position_s, watched_s,
                                               completed, bytes, message)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                    """)
            for received in events {
                let columns = ViewerEventColumns(received.event.kind)
                try insert.execute(arguments: [
                    received.receivedAt, received.event.session, received.event.video, columns.type,
                    columns.rendition, columns.milliseconds, columns.positionSeconds, columns.watchedSeconds,
                    columns.completed, columns.bytes, columns.message,
                ])
            }
        }
    }

    public func viewerEvents(
        after: Int64, through: Int64, limit: Int
    ) async throws(CatalogError)
        -> [StoredViewerEvent]
    {
        try await read { db in
            // Columns by index through a cursor: looking each up by name cost more than the rest of the read.
            let rows = try Row.fetchCursor(
                db,
                sql: """
                    SELECT id, received_at, session, video, type, rendition, ms, position_s, watched_s, completed,
                           bytes, message
                    FROM viewer_events WHERE id > ? AND id <= ? ORDER BY id LIMIT ?
                    """,
                arguments: [after, through, max(0, limit)])
            var events: [StoredViewerEvent] = []
            events.reserveCapacity(min(max(0, limit), 10_000))
            while let row = try rows.next() {
                let columns = ViewerEventColumns(
                    type: row[4], rendition: row[5], milliseconds: row[6], positionSeconds: row[7],
                    watchedSeconds: row[8], completed: row[9], bytes: row[10], message: row[11])
                events.append(
                    StoredViewerEvent(
                        id: row[0], receivedAt: row[1],
                        event: ViewerEvent(session: row[2], video: row[3], kind: try columns.kind())))
            }
            return events
        }
    }

    public func deleteViewerEvents(receivedBefore: Int64) async throws(CatalogError) -> Int {
        try await write { db in
            try db.execute(sql: "DELETE FROM viewer_events WHERE received_at < ?", arguments: [receivedBefore])
            return db.changesCount
        }
    }

    public func replaceVideoStats(_ stats: [VideoStats], rolledAt: Int64) async throws(CatalogError) {
        let encoded = try stats.map { stats throws(CatalogError) in (stats.video, try VideoStatsJSON.encode(stats)) }
        try await write { db in
            try db.execute(sql: "DELETE FROM video_stats")
            let insert = try db.cachedStatement(
                sql: "INSERT INTO video_stats (video, rolled_at, stats) VALUES (?, ?, ?)")
            for (video, json) in encoded { try insert.execute(arguments: [video, rolledAt, json]) }
        }
    }

    public func videoStats(video: String) async throws(CatalogError) -> VideoStats? {
        let json = try await read { db in
            try String.fetchOne(db, sql: "SELECT stats FROM video_stats WHERE video = ?", arguments: [video])
        }
        return try json.map { json throws(CatalogError) in try VideoStatsJSON.decode(json) }
    }

    public func allVideoStats() async throws(CatalogError) -> [VideoStats] {
        let rows = try await read { db in try String.fetchAll(db, sql: "SELECT stats FROM video_stats ORDER BY video") }
        return try rows.map { json throws(CatalogError) in try VideoStatsJSON.decode(json) }
    }
}
