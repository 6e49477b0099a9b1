@testable import FeedStore
import Foundation
import GRDB
import MediaFixtures
import MediaModel
import Testing

/// Feed items are rendered once, at publish, and stored; an edit outside FeedStore clears the stored item and the
/// reader renders that row again, so a page never shows stale JSON.
@Suite(.timeLimit(.minutes(5))) struct FeedItemStorageTests {
    let directory: TemporaryDirectory
    let store: SQLiteFeedStore
    init() throws {
        directory = try TemporaryDirectory()
        store = SQLiteFeedStore(database: try FeedDatabase(path: directory.file("catalog.sqlite")))
    }

    struct Item: Decodable, Equatable {
        struct Rendition: Decodable, Equatable {
            let rung: String
            let width: Int
            let height: Int
            let bandwidth: Int
            let average_bandwidth: Int
            let codecs: String
            let segments: Int
        }
        let id: String
        let published_at: String
        let duration_s: Double
        let width: Int
        let height: Int
        let master_url: String?
        let poster_jpeg_url: String?
        let poster_webp_url: String?
        let renditions: [Rendition]
        let storyboard: Storyboard?
    }

    struct Storyboard: Decodable, Equatable {
        let vtt_url: String
        let image_url: String
        let interval_s: Int
        let tile_width: Int
        let tile_height: Int
        let columns: Int
        let count: Int
    }

    /// A seed video with the storyboard the worker would publish for a 15 s portrait clip.
    func videoWithStoryboard(_ n: Int) -> PublishedVideo {
        var video = SyntheticVideos.video(n)
        video.storyboard = MediaModel.Storyboard(vttPath: "videos/\(video.id)/storyboard.vtt", imagePath: "videos/\(video.id)/storyboard.webp",
                                                 intervalSeconds: 1, tileWidth: 160, tileHeight: 284, columns: 10, count: 15)
        return video
    }

    func decode(_ json: String) throws -> Item { try JSONDecoder().decode(Item.self, from: Data(json.utf8)) }

    func storedItem(_ id: String) async throws -> String? {
        try await store.database.pool.read { db in try String.fetchOne(db, sql: "SELECT item_json FROM videos WHERE id = ?", arguments: [id]) }
    }

    @Test func aPublishedVideoStoresItsFinishedItem() async throws {
        try await store.seed(count: 3)
        let page = try await store.page(limit: 10, after: nil)
        #expect(page.items.map(\.id) == ["v000000002", "v000000001", "v000000000"])
        for entry in page.items {
            #expect(try await storedItem(entry.id) == entry.json)
            let item = try decode(entry.json)
            let video = try #require(try await store.video(id: entry.id))
            #expect(item.id == video.id && item.width == video.width && item.height == video.height)
            #expect(item.master_url == "/media/" + (video.masterPath ?? ""))
            #expect(item.renditions.map(\.rung) == ["360p", "720p", "1080p"])
            #expect(item.renditions.map(\.bandwidth) == video.renditions.map(\.bandwidth))
            #expect(entry.json == FeedItemJSON.render(video))
        }
        #expect(try await store.item(id: "v000000001")?.json == page.items[1].json)
    }

    @Test func aRenditionEditedOutsideFeedStoreShowsOnTheNextPage() async throws {
        try await store.seed(count: 2)
        try await store.database.pool.write { db in
            try db.execute(sql: "UPDATE renditions SET bandwidth = 123456 WHERE video_id = 'v000000001' AND rung = '720p'")
        }
        #expect(try await storedItem("v000000001") == nil)
        #expect(try await storedItem("v000000000") != nil)
        let page = try await store.pageOnBothPaths(limit: 10, after: nil)
        let edited = try decode(page.items[0].json)
        #expect(edited.renditions.first { $0.rung == "720p" }?.bandwidth == 123456)
        #expect(try decode(page.items[1].json).renditions.first { $0.rung == "720p" }?.bandwidth == 1_600_000)
    }

    @Test func aPathEditedOrARenditionDeletedOutsideFeedStoreShowsToo() async throws {
        try await store.seed(count: 1)
        try await store.database.pool.write { db in
            try db.execute(sql: "UPDATE videos SET master_path = 'videos/moved/master.m3u8' WHERE id = 'v000000000'")
        }
        #expect(try decode(#require(try await store.item(id: "v000000000")).json).master_url == "/media/videos/moved/master.m3u8")
        try await store.database.pool.write { db in
            try db.execute(sql: "UPDATE videos SET item_json = ? WHERE id = 'v000000000'", arguments: [FeedItemJSON.render(#require(try SQLiteFeedStore.video(id: "v000000000", db)))])
            try db.execute(sql: "DELETE FROM renditions WHERE video_id = 'v000000000' AND rung = '1080p'")
        }
        #expect(try decode(#require(try await store.pageOnBothPaths(limit: 1, after: nil).items.first).json).renditions.map(\.rung) == ["360p", "720p"])
    }

    @Test func aStatusChangeKeepsTheItemAndTheFeedDropsTheVideo() async throws {
        try await store.seed(count: 2)
        try await store.database.pool.write { db in try db.execute(sql: "UPDATE videos SET status = 'rejected' WHERE id = 'v000000001'") }
        #expect(try await storedItem("v000000001") != nil)
        #expect(try await store.pageOnBothPaths(limit: 10, after: nil).items.map(\.id) == ["v000000000"])
        #expect(try await store.item(id: "v000000001") == nil)
    }

    @Test func migratingAnOlderCatalogRendersEveryItem() async throws {
        let path = directory.file("old.sqlite")
        do {
            let pool = try DatabasePool(path: path)
            try FeedDatabase.migrator.migrate(pool, upTo: "v4: upload tokens and uploads")
            try await pool.write { db in
                for n in 0..<3 {
                    try db.execute(sql: """
                        INSERT INTO videos (id, status, created_at, published_at, duration_ms, width, height, content_hash, source,
                                            master_path, poster_jpeg_path, poster_webp_path)
                        VALUES (?, 'published', ?, ?, 15500, 720, 1280, ?, '{}', ?, ?, ?)
                        """, arguments: ["old\(n)", 1_700_000_000_000 + n, 1_700_000_000_000 + n, "hash\(n)", "videos/old\(n)/master.m3u8",
                                         "videos/old\(n)/poster.jpg", "videos/old\(n)/poster.webp"])
                    try db.execute(sql: """
                        INSERT INTO renditions (video_id, rung, width, height, bandwidth, average_bandwidth, codecs, segments)
                        VALUES (?, '720p', 720, 1280, 2000000, 1800000, 'avc1.64001f,mp4a.40.2', 4)
                        """, arguments: ["old\(n)"])
                }
            }
            try pool.close()
        }
        let migrated = SQLiteFeedStore(database: try FeedDatabase(path: path))
        let page = try await migrated.pageOnBothPaths(limit: 10, after: nil)
        #expect(page.items.map(\.id) == ["old2", "old1", "old0"])
        for entry in page.items {
            let stored = try await migrated.database.pool.read { db in
                try String.fetchOne(db, sql: "SELECT item_json FROM videos WHERE id = ?", arguments: [entry.id])
            }
            #expect(stored == entry.json)
            let item = try decode(entry.json)
            #expect(item.duration_s == 15.5)
            #expect(item.renditions.map(\.codecs) == ["avc1.64001f,mp4a.40.2"])
        }
    }

    @Test func aVideoWithAStoryboardShowsItAndOneWithoutOmitsTheKey() async throws {
        try await store.publish(videoWithStoryboard(7))
        try await store.seed(count: 1)
        let with = try decode(#require(try await store.item(id: "v000000007")).json)
        #expect(with.storyboard == Storyboard(vtt_url: "/media/videos/v000000007/storyboard.vtt",
                                              image_url: "/media/videos/v000000007/storyboard.webp",
                                              interval_s: 1, tile_width: 160, tile_height: 284, columns: 10, count: 15))
        #expect(try await store.video(id: "v000000007")?.storyboard == videoWithStoryboard(7).storyboard)
        let without = try #require(try await store.item(id: "v000000000")).json
        #expect(!without.contains("storyboard"))
        #expect(try decode(without).storyboard == nil)
    }

    @Test func aStoryboardEditedOutsideFeedStoreShowsOnTheNextPage() async throws {
        try await store.publish(videoWithStoryboard(3))
        try await store.database.pool.write { db in
            try db.execute(sql: "UPDATE videos SET storyboard_count = 14, storyboard_vtt_path = 'videos/x/s.vtt' WHERE id = 'v000000003'")
        }
        #expect(try await storedItem("v000000003") == nil)
        let item = try decode(#require(try await store.pageOnBothPaths(limit: 1, after: nil).items.first).json)
        #expect(item.storyboard?.count == 14 && item.storyboard?.vtt_url == "/media/videos/x/s.vtt")
    }

    @Test func migratingAVersion6CatalogKeepsItsItemsWithoutAStoryboard() async throws {
        let path = directory.file("v6.sqlite")
        do {
            let old = SQLiteFeedStore(database: try FeedDatabase(path: directory.file("scratch.sqlite")))
            let pool = try DatabasePool(path: path)
            try FeedDatabase.migrator.migrate(pool, upTo: "v6: prefetch hints")
            let video = SyntheticVideos.video(1)
            // The item as a v6 catalog stored it: rendered from a video without a storyboard.
            try await old.publish(video)
            let item = FeedItemJSON.render(try #require(try await old.video(id: video.id)))
            try await pool.write { db in
                try db.execute(sql: """
                    INSERT INTO videos (id, status, created_at, published_at, duration_ms, width, height, content_hash, source,
                                        master_path, poster_jpeg_path, poster_webp_path, item_json)
                    VALUES (?, 'published', ?, ?, ?, 1080, 1920, 'h', '{}', ?, ?, ?, ?)
                    """, arguments: [video.id, video.createdAt, video.publishedAt, video.durationMilliseconds, video.masterPath,
                                     video.posterJPEGPath, video.posterWebPPath, item])
            }
            try pool.close()
        }
        let migrated = SQLiteFeedStore(database: try FeedDatabase(path: path))
        let entry = try #require(try await migrated.page(limit: 10, after: nil).items.first)
        #expect(try decode(entry.json).storyboard == nil && !entry.json.contains("storyboard"))
        #expect(try await migrated.video(id: entry.id)?.storyboard == nil)
        // The new columns are in place: a storyboard added later shows.
        try await migrated.database.pool.write { db in
            try db.execute(sql: """
                UPDATE videos SET storyboard_vtt_path = 'a.vtt', storyboard_image_path = 'a.webp', storyboard_interval_s = 1,
                                  storyboard_tile_width = 160, storyboard_tile_height = 90, storyboard_columns = 2, storyboard_count = 2
                """)
        }
        #expect(try decode(#require(try await migrated.item(id: entry.id)).json).storyboard?.tile_height == 90)
    }

    /// v10: renditions published before it read back without a codec, CRF or target, and their stored items stay as
    /// they were; the new columns are in place, and a codec set later (outside FeedStore) shows.
    @Test func migratingAVersion9CatalogReadsItsRenditionsWithoutCodecs() async throws {
        let path = directory.file("v9.sqlite")
        let video = SyntheticVideos.video(2)
        // The item as a v9 catalog stored it: rendered from renditions without codecs.
        let item = FeedItemJSON.render(FeedVideo(id: video.id, publishedAt: video.publishedAt, durationMilliseconds: video.durationMilliseconds,
                                                 width: video.width, height: video.height, masterPath: video.masterPath,
                                                 posterJPEGPath: video.posterJPEGPath, posterWebPPath: video.posterWebPPath,
                                                 renditions: video.renditions))
        do {
            let pool = try DatabasePool(path: path)
            try FeedDatabase.migrator.migrate(pool, upTo: "v9: claimable jobs index")
            try await pool.write { db in
                try db.execute(sql: """
                    INSERT INTO videos (id, status, created_at, published_at, duration_ms, width, height, content_hash, source,
                                        master_path, poster_jpeg_path, poster_webp_path, item_json)
                    VALUES (?, 'published', ?, ?, ?, 1080, 1920, 'h', '{}', ?, ?, ?, ?)
                    """, arguments: [video.id, video.createdAt, video.publishedAt, video.durationMilliseconds, video.masterPath,
                                     video.posterJPEGPath, video.posterWebPPath, item])
                for rendition in video.renditions {
                    try db.execute(sql: """
                        INSERT INTO renditions (video_id, rung, width, height, bandwidth, average_bandwidth, codecs, segments,
                                                init_bytes, segment_duration_ms, first_segments)
                        VALUES (?, ?, ?, ?, ?, ?, ?, ?, 800, 2000, '2000:100000')
                        """, arguments: [video.id, rendition.rung, rendition.width, rendition.height, rendition.bandwidth,
                                         rendition.averageBandwidth, rendition.codecs, rendition.segments])
                }
                // The renditions' insert trigger cleared it, as FeedStore's own publish does before writing it last.
                try db.execute(sql: "UPDATE videos SET item_json = ? WHERE id = ?", arguments: [item, video.id])
            }
            try pool.close()
        }
        let migrated = SQLiteFeedStore(database: try FeedDatabase(path: path))
        let storedItem = { () async throws -> String? in try await migrated.database.pool.read { db in
            try String.fetchOne(db, sql: "SELECT item_json FROM videos WHERE id = ?", arguments: [video.id])
        } }
        let read = try #require(try await migrated.video(id: video.id))
        #expect(read.renditions.map(\.rung) == ["360p", "720p", "1080p"])
        #expect(read.renditions.allSatisfy { $0.videoCodec == nil && $0.crf == nil && $0.targetSSIMY == nil })
        #expect(read.renditions.allSatisfy { $0.prefetch?.initBytes == 800 })
        #expect(try await storedItem() == item)
        #expect(try await migrated.item(id: video.id)?.json == item && !item.contains("video_codec"))
        try await migrated.database.pool.write { db in
            try db.execute(sql: "UPDATE renditions SET video_codec = 'h264', crf = 23, target_ssim_y = 0.97 WHERE rung = '720p'")
        }
        #expect(try await storedItem() == nil)
        let shown = try #require(try await migrated.item(id: video.id)).json
        #expect(shown.contains(#""rung":"720p","width":720,"height":1280,"bandwidth":1600000,"average_bandwidth":1440000,"#
                               + #""codecs":"avc1.640028,mp4a.40.2","segments":4,"video_codec":"h264","crf":23,"target_ssim_y":0.97,"#), "\(shown)")
        #expect(try await migrated.video(id: video.id)?.renditions.map(\.crf) == [nil, 23, nil])
    }

    /// v11: a v10 catalog's whole CRFs come through the column's change to REAL, its other columns stay, and a
    /// fractional CRF published after it reads back in tenths.
    @Test func migratingAVersion10CatalogKeepsItsCRFsAndTakesFractionalOnes() async throws {
        let path = directory.file("v10.sqlite")
        let video = SyntheticVideos.video(3)
        do {
            let pool = try DatabasePool(path: path)
            try FeedDatabase.migrator.migrate(pool, upTo: "v10: rendition codecs and rates")
            try await pool.write { db in
                try db.execute(sql: """
                    INSERT INTO videos (id, status, created_at, published_at, duration_ms, width, height, content_hash, source, master_path)
                    VALUES (?, 'published', ?, ?, ?, 1080, 1920, 'h', '{}', ?)
                    """, arguments: [video.id, video.createdAt, video.publishedAt, video.durationMilliseconds, video.masterPath])
                for (index, rendition) in video.renditions.enumerated() {
                    try db.execute(sql: """
                        INSERT INTO renditions (video_id, rung, width, height, bandwidth, average_bandwidth, codecs, segments,
                                                video_codec, crf, target_ssim_y)
                        VALUES (?, ?, ?, ?, ?, ?, ?, ?, 'h264', ?, 0.97)
                        """, arguments: [video.id, rendition.rung, rendition.width, rendition.height, rendition.bandwidth,
                                         rendition.averageBandwidth, rendition.codecs, rendition.segments, index == 1 ? nil : 21 + index])
                }
            }
            try pool.close()
        }
        let migrated = SQLiteFeedStore(database: try FeedDatabase(path: path))
        let (type, crfs) = try await migrated.database.pool.read { db in
            (try String.fetchOne(db, sql: "SELECT type FROM pragma_table_info('renditions') WHERE name = 'crf'"),
             try Double?.fetchAll(db, sql: "SELECT crf FROM renditions ORDER BY height"))
        }
        #expect(type == "REAL")
        #expect(crfs == [21, nil, 23])
        let read = try #require(try await migrated.video(id: video.id))
        #expect(read.renditions.map(\.crf) == [21, nil, 23] && read.renditions.allSatisfy { $0.videoCodec == "h264" && $0.targetSSIMY == 0.97 })
        #expect(try #require(try await migrated.item(id: video.id)).json.contains(#""crf":21,"#))

        var fractional = SyntheticVideos.video(4)
        for index in fractional.renditions.indices { fractional.renditions[index].crf = 22.4 + Double(index) }
        try await migrated.publish(fractional)
        #expect(try await migrated.video(id: fractional.id)?.renditions.map(\.crf) == [22.4, 23.4, 24.4])
        #expect(try #require(try await migrated.item(id: fractional.id)).json.contains(#""crf":22.4"#))
    }
}
