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

    public func viewerEvents(after: Int64, limit: Int) async throws(CatalogError) -> [StoredViewerEvent] {
        try await read { db in
            let rows = try Row.fetchAll(
                db, sql: "SELECT * FROM viewer_events WHERE id > ? ORDER BY id LIMIT ?",
                arguments: [after, max(0, limit)])
            var events: [StoredViewerEvent] = []
            events.reserveCapacity(rows.count)
            for row in rows {
                let columns = ViewerEventColumns(
                    type: row["type"], rendition: row["rendition"], milliseconds: row["ms"],
                    positionSeconds: row["position_s"], watchedSeconds: row["watched_s"], completed: row["completed"],
                    bytes: row["bytes"], message: row["message"])
                events.append(
                    StoredViewerEvent(
                        id: row["id"], receivedAt: row["received_at"],
                        event: ViewerEvent(session: row["session"], video: row["video"], kind: try columns.kind())))
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
