package import Catalog
internal import PostgresNIO
package import ViewerAnalytics

/// Viewers' events and their figures, as `SQLiteCatalogEngine+ViewerEvents` keeps them.
extension PostgresCatalogEngine {
    /// At most this many rows per INSERT: 12 parameters each stay far below PostgreSQL's 65,535.
    static let viewerEventsPerInsert = 2000

    package func appendViewerEvents(_ events: [ReceivedViewerEvent]) async throws(CatalogError) {
        guard !events.isEmpty else { return }
        let inserts = stride(from: 0, to: events.count, by: Self.viewerEventsPerInsert).map { start in
            Self.insert(events[start..<min(events.count, start + Self.viewerEventsPerInsert)])
        }
        let logger = self.logger
        try await transaction("store \(events.count) viewer events") { connection in
            for insert in inserts { try await connection.query(insert, logger: logger) }
        }
    }

    /// One multi-row INSERT: a round trip for the lot, whatever its size.
    static func insert(_ events: ArraySlice<ReceivedViewerEvent>) -> PostgresQuery {
        var bindings = PostgresBindings(capacity: events.count * 11)
        var sql =
            "INSERT INTO viewer_events (received_at, session, video, type, rendition, ms, position_s, watched_s, completed, bytes, message) VALUES "
        for (row, received) in events.enumerated() {
            let columns = ViewerEventColumns(received.event.kind)
            bindings.append(received.receivedAt)
            bindings.append(received.event.session)
            bindings.append(received.event.video)
            bindings.append(columns.type)
            bindings.append(columns.rendition)
            bindings.append(columns.milliseconds)
            bindings.append(columns.positionSeconds)
            bindings.append(columns.watchedSeconds)
            bindings.append(columns.completed.map { $0 ? 1 : 0 })
            bindings.append(columns.bytes)
            bindings.append(columns.message)
            let first = row * 11
            sql += (row == 0 ? "(" : ", (") + (1...11).map { "$\(first + $0)" }.joined(separator: ", ") + ")"
        }
        return PostgresQuery(unsafeSQL: sql, binds: bindings)
    }

    package func viewerEvents(
        after: Int64, through: Int64, limit: Int
    ) async throws(CatalogError)
        -> [StoredViewerEvent]
    {
        let operation = "read viewer events after \(after) through \(through)"
        let rows = try await rows(
            operation,
            "SELECT * FROM viewer_events WHERE id > \(after) AND id <= \(through) ORDER BY id LIMIT \(max(0, limit))")
        let decoded = try Self.decode(operation) {
            try rows.map { row in
                let columns = ViewerEventColumns(
                    type: try row.value("type"), rendition: try row.value("rendition"),
                    milliseconds: try row.value("ms", as: Int64?.self).map(Int.init),
                    positionSeconds: try row.value("position_s"), watchedSeconds: try row.value("watched_s"),
                    completed: try row.value("completed", as: Int?.self).map { $0 != 0 },
                    bytes: try row.value("bytes", as: Int64?.self).map(Int.init),
                    message: try row.value("message"))
                return (
                    id: try row.value("id", as: Int64.self), receivedAt: try row.value("received_at", as: Int64.self),
                    session: try row.value("session", as: String.self), video: try row.value("video", as: String?.self),
                    columns: columns
                )
            }
        }
        var events: [StoredViewerEvent] = []
        events.reserveCapacity(decoded.count)
        for row in decoded {
            events.append(
                StoredViewerEvent(
                    id: row.id, receivedAt: row.receivedAt,
                    event: ViewerEvent(session: row.session, video: row.video, kind: try row.columns.kind())))
        }
        return events
    }

    package func deleteViewerEvents(receivedBefore: Int64) async throws(CatalogError) -> Int {
        let logger = self.logger
        return try await withConnection("delete viewer events received before \(receivedBefore)") { connection in
            try await connection.count(
                "DELETE FROM viewer_events WHERE received_at < \(receivedBefore) RETURNING id", logger: logger)
        }
    }

    package func replaceVideoStats(_ stats: [VideoStats], rolledAt: Int64) async throws(CatalogError) {
        let encoded = try stats.map { stats throws(CatalogError) in (stats.video, try VideoStatsJSON.encode(stats)) }
        let logger = self.logger
        try await transaction("replace the figures of \(stats.count) videos") { connection in
            try await connection.query("DELETE FROM video_stats", logger: logger)
            for (video, json) in encoded {
                try await connection.query(
                    "INSERT INTO video_stats (video, rolled_at, stats) VALUES (\(video), \(rolledAt), \(json))",
                    logger: logger)
            }
        }
    }

    package func videoStats(video: String) async throws(CatalogError) -> VideoStats? {
        let operation = "read the figures of video \(video)"
        let rows = try await rows(operation, "SELECT stats FROM video_stats WHERE video = \(video)")
        let json = try Self.decode(operation) { try rows.first.map { try $0.value("stats", as: String.self) } }
        return try json.map { json throws(CatalogError) in try VideoStatsJSON.decode(json) }
    }

    package func allVideoStats() async throws(CatalogError) -> [VideoStats] {
        let operation = "read every video's figures"
        let rows = try await rows(operation, "SELECT stats FROM video_stats ORDER BY video")
        let texts = try Self.decode(operation) { try rows.map { try $0.value("stats", as: String.self) } }
        return try texts.map { json throws(CatalogError) in try VideoStatsJSON.decode(json) }
    }
}
