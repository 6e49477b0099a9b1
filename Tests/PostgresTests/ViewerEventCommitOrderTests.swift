import Catalog
import Logging
import PostgresCatalog
import PostgresNIO
import TestServers
import Testing
import ViewerAnalytics

/// On PostgreSQL a viewer event's id is taken at insert and shown at commit, so a reader can see later ids before an
/// earlier one. The roll-up's cursor must wait for the missing id instead of skipping it for good, and must give up an
/// id whose transaction rolled back.
@Suite(.timeLimit(.minutes(5))) struct ViewerEventCommitOrderTests {
    static let logger = Logger(label: "reel.test.viewer-event-order")

    static func event(_ session: String) -> ReceivedViewerEvent {
        ReceivedViewerEvent(
            receivedAt: 1_000,
            event: ViewerEvent(session: session, video: "v", kind: .stall(milliseconds: 250)))
    }

    /// Reads what a pass reads: every gap again, then everything after the highest id.
    static func pass(
        _ cursor: inout EventLogCursor<StoredViewerEvent>, _ store: PostgresCatalogEngine, now: Int64
    ) async throws -> [String] {
        for gap in cursor.gaps {
            let rows = try await store.viewerEvents(
                after: gap.ids.lowerBound - 1, through: gap.ids.upperBound, limit: 100)
            cursor.take(rows.map { (id: $0.id, element: $0) }, now: now)
        }
        let rows = try await store.viewerEvents(after: cursor.highest, limit: 100)
        cursor.take(rows.map { (id: $0.id, element: $0) }, now: now)
        return cursor.release(now: now).map(\.event.session)
    }

    @Test func aLateCommitIsWaitedForAndARollbackIsGivenUp() async throws {
        let server = try await PostgresTestServer()
        try await PostgresCatalogEngineTests.withStore(server, database: "order") { store in
            try await PostgresTestServerTests.withClient(server, database: "order") { client in
                var cursor = EventLogCursor<StoredViewerEvent>(patience: 60_000, after: 0)
                try await client.withConnection { slow in
                    try await slow.query("BEGIN", logger: Self.logger)
                    try await slow.query(
                        """
                        INSERT INTO viewer_events (received_at, session, video, type, ms)
                        VALUES (1000, 'slow', 'v', 'stall', 250)
                        """, logger: Self.logger)
                    // A later batch commits while the first is still open: its ids are above the open one's.
                    try await store.appendViewerEvents([Self.event("quick-1"), Self.event("quick-2")])
                    let visible = try await store.viewerEvents(after: 0, limit: 100)
                    #expect(visible.map(\.event.session) == ["quick-1", "quick-2"])
                    #expect(try await Self.pass(&cursor, store, now: 0).isEmpty)
                    #expect(cursor.gaps.map(\.ids) == [1...1])
                    try await slow.query("COMMIT", logger: Self.logger)
                }
                #expect(try await Self.pass(&cursor, store, now: 1) == ["slow", "quick-1", "quick-2"])
                #expect(cursor.gaps.isEmpty && cursor.settled == 3)

                try await client.withConnection { doomed in
                    try await doomed.query("BEGIN", logger: Self.logger)
                    try await doomed.query(
                        """
                        INSERT INTO viewer_events (received_at, session, video, type, ms)
                        VALUES (1000, 'doomed', 'v', 'stall', 250)
                        """, logger: Self.logger)
                    try await doomed.query("ROLLBACK", logger: Self.logger)
                }
                try await store.appendViewerEvents([Self.event("after")])
                #expect(try await Self.pass(&cursor, store, now: 2).isEmpty)
                #expect(cursor.gaps.map(\.ids) == [4...4])
                #expect(try await Self.pass(&cursor, store, now: 60_001).isEmpty)
                #expect(try await Self.pass(&cursor, store, now: 60_002) == ["after"])
                #expect(cursor.gaps.isEmpty && cursor.settled == 5)
            }
        }
    }
}
