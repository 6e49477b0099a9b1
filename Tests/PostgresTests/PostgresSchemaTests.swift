import Catalog
import Deadlines
import Foundation
import Logging
import MediaFixtures
import PostgresCatalog
import PostgresNIO
import TestServers
import Testing

/// The PostgreSQL catalog's schema: applied once however many processes migrate at the same moment, and the same
/// triggers at work as on SQLite. Its tables and columns are checked against `CatalogSchema.current` by
/// `CatalogSchemaConformanceTests`, on both engines.
@Suite(.timeLimit(.minutes(5))) struct PostgresSchemaTests {
    static let logger = Logger(label: "reel.test.postgres")

    static func rows<T: PostgresDecodable & Sendable>(
        _ client: PostgresClient, _ query: PostgresQuery, as: T.Type
    ) async throws -> [T] {
        var result: [T] = []
        for try await value in try await client.query(query, logger: logger).decode(T.self) { result.append(value) }
        return result
    }

    @Test func migratingTwiceAppliesEachVersionOnce() async throws {
        let server = try await PostgresTestServer()
        let (first, second, versions) = try await PostgresTestServerTests.withClient(server, database: "postgres") {
            client in
            let first = try await PostgresMigrator().migrate(client, logger: Self.logger)
            let second = try await PostgresMigrator().migrate(client, logger: Self.logger)
            let versions = try await Self.rows(
                client, "SELECT version FROM schema_migrations ORDER BY version", as: Int.self)
            return (first, second, versions)
        }
        #expect(first == PostgresSchema.migrations.map(\.version))
        #expect(second.isEmpty)
        #expect(versions == PostgresSchema.migrations.map(\.version))
    }

    @Test func manyProcessesMigratingAtOnceApplyItOnce() async throws {
        let server = try await PostgresTestServer()
        // Separate clients, as separate hosts would have, all starting together.
        let applied = try await withThrowingTaskGroup(of: [Int].self) { group in
            for _ in 0..<4 {
                group.addTask {
                    try await PostgresTestServerTests.withClient(server, database: "postgres") {
                        try await PostgresMigrator().migrate($0, logger: Self.logger)
                    }
                }
            }
            var all: [[Int]] = []
            for try await versions in group { all.append(versions) }
            return all
        }
        #expect(applied.filter { !$0.isEmpty } == [PostgresSchema.migrations.map(\.version)], "\(applied)")
    }

    @Test func editsBumpTheGenerationAndClearStoredRecords() async throws {
        let server = try await PostgresTestServer()
        try await PostgresTestServerTests.withClient(server, database: "postgres") { client in
            try await PostgresMigrator().migrate(client, logger: Self.logger)
            try await client.query(
                """
                INSERT INTO videos (id, status, created_at, published_at, duration_ms, width, height, content_hash, item_record)
                VALUES ('v1', 'published', 1, 2, 15000, 720, 1280, 'h1', '\\x01')
                """, logger: Self.logger)
            let generation: PostgresQuery = "SELECT value FROM catalog_generation"
            let item: PostgresQuery = "SELECT encode(item_record, 'hex') FROM videos WHERE id = 'v1'"
            let before = try await Self.rows(client, generation, as: Int64.self)

            // A status change is not in the record: the generation moves, the record stays.
            try await client.query("UPDATE videos SET status = 'published' WHERE id = 'v1'", logger: Self.logger)
            #expect(try await Self.rows(client, generation, as: Int64.self) == before.map { $0 + 1 })
            #expect(try await Self.rows(client, item, as: String?.self) == ["01"])

            // A size change is: the stored record is cleared, so readers encode it again.
            try await client.query("UPDATE videos SET width = 1080 WHERE id = 'v1'", logger: Self.logger)
            #expect(try await Self.rows(client, item, as: String?.self) == [nil])

            // So is a new rendition.
            try await client.query("UPDATE videos SET item_record = '\\x01' WHERE id = 'v1'", logger: Self.logger)
            try await client.query(
                """
                INSERT INTO renditions (video_id, rung, width, height, bandwidth, average_bandwidth, codecs, segments)
                VALUES ('v1', '720p', 720, 1280, 3000000, 2500000, 'avc1.64001f,mp4a.40.2', 4)
                """, logger: Self.logger)
            #expect(try await Self.rows(client, item, as: String?.self) == [nil])

            // Deleting the video takes its renditions with it.
            try await client.query("DELETE FROM videos WHERE id = 'v1'", logger: Self.logger)
            #expect(try await Self.rows(client, "SELECT count(*) FROM renditions", as: Int64.self) == [0])
        }
    }

    /// v2: a transaction that changes the feed several times moves the generation once, and announces it once
    /// (`reel_generation`, the new value as payload), at commit.
    @Test func aTransactionMovesAndAnnouncesTheGenerationOnce() async throws {
        let server = try await PostgresTestServer()
        try await PostgresTestServerTests.withClient(server, database: "postgres") { client in
            try await PostgresMigrator().migrate(client, logger: Self.logger)
            try await client.query(
                """
                INSERT INTO videos (id, status, created_at, published_at, duration_ms, width, height, content_hash)
                VALUES ('v1', 'published', 1, 2, 15000, 720, 1280, 'h1')
                """, logger: Self.logger)
            let generation: PostgresQuery = "SELECT value FROM catalog_generation"
            let before = try #require(try await Self.rows(client, generation, as: Int64.self).first)
            // PostgresNIO's notification iterator does not end when its task is cancelled: a notification that never
            // came kept this test in flight past its time limit in a starved run. The whole step has a deadline.
            try await withDeadline(.seconds(120), "the reel_generation notifications of two transactions") {
                try await client.withConnection { listener in
                    try await listener.listen(on: "reel_generation") { notifications in
                        var iterator = notifications.makeAsyncIterator()
                        try await client.withTransaction(logger: Self.logger) { connection in
                            try await connection.query(
                                "UPDATE videos SET status = 'published' WHERE id = 'v1'", logger: Self.logger)
                            try await connection.query(
                                "UPDATE videos SET width = 1080 WHERE id = 'v1'", logger: Self.logger)
                            try await connection.query(
                                """
                                INSERT INTO renditions (video_id, rung, width, height, bandwidth, average_bandwidth, codecs, segments)
                                VALUES ('v1', '720p', 720, 1280, 3000000, 2500000, 'avc1.64001f,mp4a.40.2', 4)
                                """, logger: Self.logger)
                        }
                        let after = try await Self.rows(client, generation, as: Int64.self)
                        #expect(after == [before + 1])
                        let first = try await iterator.next()?.payload
                        #expect(first == String(before + 1))
                        // The next notification is the next transaction's: the first sent no second one.
                        try await client.query("DELETE FROM videos WHERE id = 'v1'", logger: Self.logger)
                        let second = try await iterator.next()?.payload
                        #expect(second == String(before + 2))
                    }
                }
            }
        }
    }

    /// v4: renditions published before it read back without a codec, CRF or target; v6 writes their records from
    /// the columns; a codec set later (outside Reel) shows.
    @Test func renditionsPublishedBeforeVersion4ReadBackWithoutCodecs() async throws {
        let server = try await PostgresTestServer()
        try await server.createDatabase("before_codecs")
        let video = SyntheticVideos.video(2)
        // The item as a catalog before v6 stored it; v6 drops it for a record.
        let item = #"{"id":"old item JSON, dropped by v6"}"#
        try await PostgresTestServerTests.withClient(server, database: "before_codecs") { client in
            let applied = try await PostgresMigrator(migrations: PostgresSchema.migrations.filter { $0.version < 4 })
                .migrate(client, logger: Self.logger)
            #expect(applied == [1, 2, 3])
            try await client.query(
                """
                INSERT INTO videos (id, status, created_at, published_at, duration_ms, width, height, content_hash, master_path)
                VALUES (\(video.id), 'published', \(video.createdAt), \(video.publishedAt), \(video.durationMilliseconds), 1080, 1920,
                        'h', \(video.masterPath))
                """, logger: Self.logger)
            for rendition in video.renditions {
                try await client.query(
                    """
                    INSERT INTO renditions (video_id, rung, width, height, bandwidth, average_bandwidth, codecs, segments)
                    VALUES (\(video.id), \(rendition.rung), \(rendition.width), \(rendition.height), \(rendition.bandwidth),
                            \(rendition.averageBandwidth), \(rendition.codecs), \(rendition.segments))
                    """, logger: Self.logger)
            }
            try await client.query("UPDATE videos SET item_json = \(item) WHERE id = \(video.id)", logger: Self.logger)
        }
        try await PostgresCatalogEngineTests.withStore(server, database: "before_codecs", create: false) { store in
            let read = try #require(try await store.video(id: video.id))
            #expect(read.renditions.map(\.rung) == ["360p", "720p", "1080p"])
            #expect(read.renditions.allSatisfy { $0.videoCodec == nil && $0.crf == nil && $0.targetSSIMY == nil })
            #expect(try await store.item(id: video.id)?.video() == read)
            #expect(try await store.item(id: video.id)?.record == FeedVideoRecord.encode(read))
        }
        try await PostgresTestServerTests.withClient(server, database: "before_codecs") { client in
            try await client.query(
                "UPDATE renditions SET video_codec = 'h264', crf = 23, target_ssim_y = 0.97 WHERE rung = '720p'",
                logger: Self.logger)
            #expect(
                try await Self.rows(client, "SELECT encode(item_record, 'hex') FROM videos", as: String?.self) == [nil])
        }
        try await PostgresCatalogEngineTests.withStore(server, database: "before_codecs", create: false) { store in
            let shown = try #require(try await store.item(id: video.id)).video().renditions.first { $0.rung == "720p" }
            #expect(
                shown?.videoCodec == "h264" && shown?.crf == 23 && shown?.targetSSIMY == 0.97,
                "\(String(describing: shown))")
            #expect(try await store.video(id: video.id)?.renditions.map(\.crf) == [nil, 23, nil])
        }
    }

    /// v5: a catalog's whole CRFs come through the column's change to double precision, and a fractional CRF
    /// published after it reads back in tenths.
    @Test func version5KeepsWholeCRFsAndTakesFractionalOnes() async throws {
        let server = try await PostgresTestServer()
        try await server.createDatabase("whole_crfs")
        let video = SyntheticVideos.video(3)
        try await PostgresTestServerTests.withClient(server, database: "whole_crfs") { client in
            let applied = try await PostgresMigrator(migrations: PostgresSchema.migrations.filter { $0.version < 5 })
                .migrate(client, logger: Self.logger)
            #expect(applied == [1, 2, 3, 4])
            try await client.query(
                """
                INSERT INTO videos (id, status, created_at, published_at, duration_ms, width, height, content_hash, master_path)
                VALUES (\(video.id), 'published', \(video.createdAt), \(video.publishedAt), \(video.durationMilliseconds), 1080, 1920,
                        'h', \(video.masterPath))
                """, logger: Self.logger)
            for (index, rendition) in video.renditions.enumerated() {
                let crf: Int? = index == 1 ? nil : 21 + index
                try await client.query(
                    """
                    INSERT INTO renditions (video_id, rung, width, height, bandwidth, average_bandwidth, codecs, segments, video_codec, crf)
                    VALUES (\(video.id), \(rendition.rung), \(rendition.width), \(rendition.height), \(rendition.bandwidth),
                            \(rendition.averageBandwidth), \(rendition.codecs), \(rendition.segments), 'h264', \(crf))
                    """, logger: Self.logger)
            }
        }
        var tenths = SyntheticVideos.video(4)
        for index in tenths.renditions.indices { tenths.renditions[index].crf = 22.4 + Double(index) }
        let fractional = tenths
        try await PostgresCatalogEngineTests.withStore(server, database: "whole_crfs", create: false) { store in
            #expect(try await store.video(id: video.id)?.renditions.map(\.crf) == [21, nil, 23])
            #expect(try #require(try await store.item(id: video.id)).video().renditions.map(\.crf) == [21, nil, 23])
            try await store.publish(fractional)
            #expect(try await store.video(id: fractional.id)?.renditions.map(\.crf) == [22.4, 23.4, 24.4])
            #expect(
                try #require(try await store.item(id: fractional.id)).video().renditions.map(\.crf) == [
                    22.4, 23.4, 24.4,
                ])
        }
        try await PostgresTestServerTests.withClient(server, database: "whole_crfs") { client in
            let type = try await Self.rows(
                client,
                """
                SELECT data_type::text FROM information_schema.columns WHERE table_name = 'renditions' AND column_name = 'crf'
                """, as: String.self)
            #expect(type == ["double precision"])
        }
    }
}
