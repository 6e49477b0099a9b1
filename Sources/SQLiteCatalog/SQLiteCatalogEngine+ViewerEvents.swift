package import Catalog
internal import Foundation
internal import GRDB
internal import LibSQLite
package import ViewerAnalytics

/// Viewers' events and the figures rolled up from them (`ViewerEventLog`).
extension SQLiteCatalogEngine {
    package func appendViewerEvents(_ events: [ReceivedViewerEvent]) async throws(CatalogError) {
        guard !events.isEmpty else { return }
        try await write { db in
            // Many rows per INSERT, bound directly: SQLite opens its cursors once per statement, and GRDB's arguments
            // cost more than half as much as the insert (docs/quirks.md).
            for start in stride(from: 0, to: events.count, by: Self.viewerEventsPerInsert) {
                let rows = events[start..<min(events.count, start + Self.viewerEventsPerInsert)]
                let insert = try db.cachedStatement(sql: Self.viewerEventInserts[rows.count])
                let run = SQLiteInsert(borrowing: insert.sqliteStatement)
                for (offset, received) in rows.enumerated() {
                    let first = Int32(offset * 11)
                    let columns = ViewerEventColumns(received.event.kind)
                    try run.bind(first + 1, received.receivedAt)
                    try run.bind(first + 2, received.event.session)
                    try run.bind(first + 3, received.event.video)
                    try run.bind(first + 4, columns.type)
                    try run.bind(first + 5, columns.rendition)
                    try run.bind(first + 6, columns.milliseconds)
                    try run.bind(first + 7, columns.positionSeconds)
                    try run.bind(first + 8, columns.watchedSeconds)
                    try run.bind(first + 9, columns.completed.map { $0 ? 1 : 0 } as Int?)
                    try run.bind(first + 10, columns.bytes)
                    try run.bind(first + 11, columns.message)
                }
                try run.run()
            }
        }
    }

    /// Rows per INSERT statement: a batch's worth.
    static let viewerEventsPerInsert = 50

    /// The INSERT of `n` events at index `n`, for 1 to `viewerEventsPerInsert`.
    static let viewerEventInserts: [String] = (0...viewerEventsPerInsert).map { count in
        """
        INSERT INTO viewer_events (received_at, session, video, type, rendition, ms, position_s, watched_s, completed,
                                   bytes, message)
        VALUES
        """ + " " + Array(repeating: "(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", count: count).joined(separator: ", ")
    }

    package func viewerEvents(
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

    package func deleteViewerEvents(receivedBefore: Int64) async throws(CatalogError) -> Int {
        try await write { db in
            try db.execute(sql: "DELETE FROM viewer_events WHERE received_at < ?", arguments: [receivedBefore])
            return db.changesCount
        }
    }

    package func replaceVideoStats(_ stats: [VideoStats], rolledAt: Int64) async throws(CatalogError) {
        let encoded = try stats.map { stats throws(CatalogError) in (stats.video, try VideoStatsJSON.encode(stats)) }
        try await write { db in
            try db.execute(sql: "DELETE FROM video_stats")
            let insert = try db.cachedStatement(
                sql: "INSERT INTO video_stats (video, rolled_at, stats) VALUES (?, ?, ?)")
            for (video, json) in encoded { try insert.execute(arguments: [video, rolledAt, json]) }
        }
    }

    package func videoStats(video: String) async throws(CatalogError) -> VideoStats? {
        let json = try await read { db in
            try String.fetchOne(db, sql: "SELECT stats FROM video_stats WHERE video = ?", arguments: [video])
        }
        return try json.map { json throws(CatalogError) in try VideoStatsJSON.decode(json) }
    }

    package func allVideoStats() async throws(CatalogError) -> [VideoStats] {
        let rows = try await read { db in try String.fetchAll(db, sql: "SELECT stats FROM video_stats ORDER BY video") }
        return try rows.map { json throws(CatalogError) in try VideoStatsJSON.decode(json) }
    }
}
