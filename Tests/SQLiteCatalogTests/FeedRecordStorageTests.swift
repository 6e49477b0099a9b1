import Foundation
import GRDB
import MediaFixtures
import MediaModel
import Testing

@testable import Catalog
@testable import SQLiteCatalog

/// Each video's facts are stored as one record at publish (`FeedVideoRecord`); an edit outside Reel clears the
/// stored record and the reader encodes that row again, so a page never shows stale facts. The record holds paths,
/// never URLs: rendering is the feed server's.
@Suite(.timeLimit(.minutes(5))) struct FeedRecordStorageTests {
    let directory: TemporaryDirectory
    let store: SQLiteCatalogEngine
    init() throws {
        directory = try TemporaryDirectory()
        store = SQLiteCatalogEngine(database: try SQLiteCatalogDatabase(path: directory.file("catalog.sqlite")))
    }

    /// A seed video with the storyboard the worker would publish for a 15 s portrait clip.
    func videoWithStoryboard(_ n: Int) -> PublishedVideo {
        var video = SyntheticVideos.video(n)
        video.storyboard = MediaModel.Storyboard(
            vttPath: "videos/\(video.id)/storyboard.vtt", imagePath: "videos/\(video.id)/storyboard.webp",
            intervalSeconds: 1, tileWidth: 160, tileHeight: 284, columns: 10, count: 15)
        return video
    }

    func storedRecord(_ id: String) async throws -> [UInt8]? {
        try await store.database.pool.read { db in
            try Data.fetchOne(db, sql: "SELECT item_record FROM videos WHERE id = ?", arguments: [id]).map { Array($0) }
        }
    }

    @Test func aPublishedVideoStoresItsFactsAsOneRecord() async throws {
        try await store.seed(count: 3)
        let page = try await store.page(limit: 10, after: nil)
        #expect(page.items.map(\.id) == ["v000000002", "v000000001", "v000000000"])
        for entry in page.items {
            #expect(try await storedRecord(entry.id) == entry.record)
            let video = try #require(try await store.video(id: entry.id))
            #expect(try entry.video() == video)
            #expect(try entry.video().renditions.map(\.rung) == ["360p", "720p", "1080p"])
            // Paths relative to the library, no URL: the record has no idea where the media is served from.
            #expect(try entry.video().masterPath == "videos/\(entry.id)/master.m3u8")
            #expect(!String(decoding: entry.record, as: UTF8.self).contains("/media/"))
        }
        #expect(try await store.item(id: "v000000001")?.record == page.items[1].record)
    }

    @Test func aRenditionEditedOutsideReelShowsOnTheNextPage() async throws {
        try await store.seed(count: 2)
        try await store.database.pool.write { db in
            try db.execute(
                sql: "UPDATE renditions SET bandwidth = 123456 WHERE video_id = 'v000000001' AND rung = '720p'")
        }
        #expect(try await storedRecord("v000000001") == nil)
        #expect(try await storedRecord("v000000000") != nil)
        let page = try await store.pageOnBothPaths(limit: 10, after: nil)
        let edited = try page.items[0].video()
        #expect(edited.renditions.first { $0.rung == "720p" }?.bandwidth == 123456)
        #expect(try page.items[1].video().renditions.first { $0.rung == "720p" }?.bandwidth == 1_600_000)
    }

    @Test func aPathEditedOrARenditionDeletedOutsideReelShowsToo() async throws {
        try await store.seed(count: 1)
        try await store.database.pool.write { db in
            try db.execute(sql: "UPDATE videos SET master_path = 'videos/moved/master.m3u8' WHERE id = 'v000000000'")
        }
        #expect(try #require(try await store.item(id: "v000000000")).video().masterPath == "videos/moved/master.m3u8")
        try await store.database.pool.write { db in
            try db.execute(
                sql: "UPDATE videos SET item_record = ? WHERE id = 'v000000000'",
                arguments: [Data(FeedVideoRecord.encode(#require(try SQLiteCatalogEngine.video(id: "v000000000", db))))]
            )
            try db.execute(sql: "DELETE FROM renditions WHERE video_id = 'v000000000' AND rung = '1080p'")
        }
        #expect(
            try #require(try await store.pageOnBothPaths(limit: 1, after: nil).items.first).video().renditions.map(
                \.rung) == ["360p", "720p"])
    }

    @Test func aStatusChangeKeepsTheItemAndTheFeedDropsTheVideo() async throws {
        try await store.seed(count: 2)
        try await store.database.pool.write { db in
            try db.execute(sql: "UPDATE videos SET status = 'rejected' WHERE id = 'v000000001'")
        }
        #expect(try await storedRecord("v000000001") != nil)
        #expect(try await store.pageOnBothPaths(limit: 10, after: nil).items.map(\.id) == ["v000000000"])
        #expect(try await store.item(id: "v000000001") == nil)
    }

    @Test func migratingAnOlderCatalogWritesEveryRecord() async throws {
        let path = directory.file("old.sqlite")
        do {
            let pool = try DatabasePool(path: path)
            try SQLiteCatalogDatabase.migrator.migrate(pool, upTo: "v4: upload tokens and uploads")
            try await pool.write { db in
                for n in 0..<3 {
                    try db.execute(
                        sql: """
                            INSERT INTO videos (id, status, created_at, published_at, duration_ms, width, height, content_hash, source,
                                                master_path, poster_jpeg_path, poster_webp_path)
                            VALUES (?, 'published', ?, ?, 15500, 720, 1280, ?, '{}', ?, ?, ?)
                            """,
                        arguments: [
                            "old\(n)", 1_700_000_000_000 + n, 1_700_000_000_000 + n, "hash\(n)",
                            "videos/old\(n)/master.m3u8",
                            "videos/old\(n)/poster.jpg", "videos/old\(n)/poster.webp",
                        ])
                    try db.execute(
                        sql: """
                            INSERT INTO renditions (video_id, rung, width, height, bandwidth, average_bandwidth, codecs, segments)
                            VALUES (?, '720p', 720, 1280, 2000000, 1800000, 'avc1.64001f,mp4a.40.2', 4)
                            """, arguments: ["old\(n)"])
                }
            }
            try pool.close()
        }
        let migrated = SQLiteCatalogEngine(database: try SQLiteCatalogDatabase(path: path))
        let page = try await migrated.pageOnBothPaths(limit: 10, after: nil)
        #expect(page.items.map(\.id) == ["old2", "old1", "old0"])
        for entry in page.items {
            let stored = try await migrated.database.pool.read { db in
                try Data.fetchOne(db, sql: "SELECT item_record FROM videos WHERE id = ?", arguments: [entry.id])
            }
            #expect(stored.map { Array($0) } == entry.record)
            let item = try entry.video()
            #expect(item.durationMilliseconds == 15_500)
            #expect(item.renditions.map(\.codecs) == ["avc1.64001f,mp4a.40.2"])
        }
    }

    @Test func aVideoWithAStoryboardKeepsItAndOneWithoutHasNone() async throws {
        try await store.publish(videoWithStoryboard(7))
        try await store.seed(count: 1)
        let with = try #require(try await store.item(id: "v000000007")).video()
        #expect(with.storyboard == videoWithStoryboard(7).storyboard)
        #expect(try await store.video(id: "v000000007")?.storyboard == videoWithStoryboard(7).storyboard)
        #expect(try #require(try await store.item(id: "v000000000")).video().storyboard == nil)
    }

    @Test func aStoryboardEditedOutsideReelShowsOnTheNextPage() async throws {
        try await store.publish(videoWithStoryboard(3))
        try await store.database.pool.write { db in
            try db.execute(
                sql:
                    "UPDATE videos SET storyboard_count = 14, storyboard_vtt_path = 'videos/x/s.vtt' WHERE id = 'v000000003'"
            )
        }
        #expect(try await storedRecord("v000000003") == nil)
        let item = try #require(try await store.pageOnBothPaths(limit: 1, after: nil).items.first).video()
        #expect(item.storyboard?.count == 14 && item.storyboard?.vttPath == "videos/x/s.vtt")
    }

    @Test func migratingAVersion6CatalogKeepsItsItemsWithoutAStoryboard() async throws {
        let path = directory.file("v6.sqlite")
        do {
            let old = SQLiteCatalogEngine(database: try SQLiteCatalogDatabase(path: directory.file("scratch.sqlite")))
            let pool = try DatabasePool(path: path)
            try SQLiteCatalogDatabase.migrator.migrate(pool, upTo: "v6: prefetch hints")
            let video = SyntheticVideos.video(1)
            // A v6 catalog stored a rendered item; v12 drops it for a record.
            try await old.publish(video)
            let item = #"{"id":"old item JSON, dropped by v12"}"#
            try await pool.write { db in
                try db.execute(
                    sql: """
                        INSERT INTO videos (id, status, created_at, published_at, duration_ms, width, height, content_hash, source,
                                            master_path, poster_jpeg_path, poster_webp_path, item_json)
                        VALUES (?, 'published', ?, ?, ?, 1080, 1920, 'h', '{}', ?, ?, ?, ?)
                        """,
                    arguments: [
                        video.id, video.createdAt, video.publishedAt, video.durationMilliseconds, video.masterPath,
                        video.posterJPEGPath, video.posterWebPPath, item,
                    ])
            }
            try pool.close()
        }
        let migrated = SQLiteCatalogEngine(database: try SQLiteCatalogDatabase(path: path))
        let entry = try #require(try await migrated.page(limit: 10, after: nil).items.first)
        #expect(try entry.video().storyboard == nil && entry.video().renditions.count == 0)
        let columns = try await migrated.database.pool.read { db in
            try String.fetchAll(db, sql: "SELECT name FROM pragma_table_info('videos')")
        }
        #expect(columns.contains("item_record") && !columns.contains("item_json"))
        #expect(try await migrated.video(id: entry.id)?.storyboard == nil)
        // The new columns are in place: a storyboard added later shows.
        try await migrated.database.pool.write { db in
            try db.execute(
                sql: """
                    UPDATE videos SET storyboard_vtt_path = 'a.vtt', storyboard_image_path = 'a.webp', storyboard_interval_s = 1,
                                      storyboard_tile_width = 160, storyboard_tile_height = 90, storyboard_columns = 2, storyboard_count = 2
                    """)
        }
        #expect(try #require(try await migrated.item(id: entry.id)).video().storyboard?.tileHeight == 90)
    }

    /// v10: renditions published before it read back without a codec, CRF or target, and their stored items stay as
    /// they were; the new columns are in place, and a codec set later (outside Reel) shows.
    @Test func migratingAVersion9CatalogReadsItsRenditionsWithoutCodecs() async throws {
        let path = directory.file("v9.sqlite")
        let video = SyntheticVideos.video(2)
        // A v9 catalog stored a rendered item; v12 drops it for a record written from the columns.
        let item = #"{"id":"old item JSON, dropped by v12"}"#
        do {
            let pool = try DatabasePool(path: path)
            try SQLiteCatalogDatabase.migrator.migrate(pool, upTo: "v9: claimable jobs index")
            try await pool.write { db in
                try db.execute(
                    sql: """
                        INSERT INTO videos (id, status, created_at, published_at, duration_ms, width, height, content_hash, source,
                                            master_path, poster_jpeg_path, poster_webp_path, item_json)
                        VALUES (?, 'published', ?, ?, ?, 1080, 1920, 'h', '{}', ?, ?, ?, ?)
                        """,
                    arguments: [
                        video.id, video.createdAt, video.publishedAt, video.durationMilliseconds, video.masterPath,
                        video.posterJPEGPath, video.posterWebPPath, item,
                    ])
                for rendition in video.renditions {
                    try db.execute(
                        sql: """
                            INSERT INTO renditions (video_id, rung, width, height, bandwidth, average_bandwidth, codecs, segments,
                                                    init_bytes, segment_duration_ms, first_segments)
                            VALUES (?, ?, ?, ?, ?, ?, ?, ?, 800, 2000, '2000:100000')
                            """,
                        arguments: [
                            video.id, rendition.rung, rendition.width, rendition.height, rendition.bandwidth,
                            rendition.averageBandwidth, rendition.codecs, rendition.segments,
                        ])
                }
                // The renditions' insert trigger cleared it, as the engine's own publish does before writing it last.
                try db.execute(sql: "UPDATE videos SET item_json = ? WHERE id = ?", arguments: [item, video.id])
            }
            try pool.close()
        }
        let migrated = SQLiteCatalogEngine(database: try SQLiteCatalogDatabase(path: path))
        let storedRecord = { () async throws -> [UInt8]? in
            try await migrated.database.pool.read { db in
                try Data.fetchOne(db, sql: "SELECT item_record FROM videos WHERE id = ?", arguments: [video.id]).map {
                    Array($0)
                }
            }
        }
        let read = try #require(try await migrated.video(id: video.id))
        #expect(read.renditions.map(\.rung) == ["360p", "720p", "1080p"])
        #expect(read.renditions.allSatisfy { $0.videoCodec == nil && $0.crf == nil && $0.targetSSIMY == nil })
        #expect(read.renditions.allSatisfy { $0.prefetch?.initBytes == 800 })
        #expect(try await storedRecord() == FeedVideoRecord.encode(read))
        #expect(try await migrated.item(id: video.id)?.video() == read)
        try await migrated.database.pool.write { db in
            try db.execute(
                sql: "UPDATE renditions SET video_codec = 'h264', crf = 23, target_ssim_y = 0.97 WHERE rung = '720p'")
        }
        #expect(try await storedRecord() == nil)
        let shown = try #require(try await migrated.item(id: video.id)).video().renditions.first { $0.rung == "720p" }
        #expect(
            shown?.videoCodec == "h264" && shown?.crf == 23 && shown?.targetSSIMY == 0.97
                && shown?.bandwidth == 1_600_000)
        #expect(try await migrated.video(id: video.id)?.renditions.map(\.crf) == [nil, 23, nil])
    }

    /// v11: a v10 catalog's whole CRFs come through the column's change to REAL, its other columns stay, and a
    /// fractional CRF published after it reads back in tenths.
    @Test func migratingAVersion10CatalogKeepsItsCRFsAndTakesFractionalOnes() async throws {
        let path = directory.file("v10.sqlite")
        let video = SyntheticVideos.video(3)
        do {
            let pool = try DatabasePool(path: path)
            try SQLiteCatalogDatabase.migrator.migrate(pool, upTo: "v10: rendition codecs and rates")
            try await pool.write { db in
                try db.execute(
                    sql: """
                        INSERT INTO videos (id, status, created_at, published_at, duration_ms, width, height, content_hash, source, master_path)
                        VALUES (?, 'published', ?, ?, ?, 1080, 1920, 'h', '{}', ?)
                        """,
                    arguments: [
                        video.id, video.createdAt, video.publishedAt, video.durationMilliseconds, video.masterPath,
                    ])
                for (index, rendition) in video.renditions.enumerated() {
                    try db.execute(
                        sql: """
                            INSERT INTO renditions (video_id, rung, width, height, bandwidth, average_bandwidth, codecs, segments,
                                                    video_codec, crf, target_ssim_y)
                            VALUES (?, ?, ?, ?, ?, ?, ?, ?, 'h264', ?, 0.97)
                            """,
                        arguments: [
                            video.id, rendition.rung, rendition.width, rendition.height, rendition.bandwidth,
                            rendition.averageBandwidth, rendition.codecs, rendition.segments,
                            index == 1 ? nil : 21 + index,
                        ])
                }
            }
            try pool.close()
        }
        let migrated = SQLiteCatalogEngine(database: try SQLiteCatalogDatabase(path: path))
        let (type, crfs) = try await migrated.database.pool.read { db in
            (
                try String.fetchOne(db, sql: "SELECT type FROM pragma_table_info('renditions') WHERE name = 'crf'"),
                try Double?.fetchAll(db, sql: "SELECT crf FROM renditions ORDER BY height")
            )
        }
        #expect(type == "REAL")
        #expect(crfs == [21, nil, 23])
        let read = try #require(try await migrated.video(id: video.id))
        #expect(
            read.renditions.map(\.crf) == [21, nil, 23]
                && read.renditions.allSatisfy { $0.videoCodec == "h264" && $0.targetSSIMY == 0.97 })
        #expect(try #require(try await migrated.item(id: video.id)).video().renditions.map(\.crf) == [21, nil, 23])

        var fractional = SyntheticVideos.video(4)
        for index in fractional.renditions.indices { fractional.renditions[index].crf = 22.4 + Double(index) }
        try await migrated.publish(fractional)
        #expect(try await migrated.video(id: fractional.id)?.renditions.map(\.crf) == [22.4, 23.4, 24.4])
        #expect(
            try #require(try await migrated.item(id: fractional.id)).video().renditions.map(\.crf) == [
                22.4, 23.4, 24.4,
            ])
    }
}
