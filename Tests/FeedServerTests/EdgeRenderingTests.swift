import Catalog
import FeedServer
import Foundation
import GRDB
import Hummingbird
import HummingbirdTesting
import MediaFixtures
import SQLiteCatalog
import Testing

/// The catalog keeps paths and the server renders URLs: one catalog, served with two media bases, gives each its own
/// URLs with no write to the catalog; an edit to a video shows on the next page, however long the item was kept.
@Suite(.timeLimit(.minutes(5))) struct EdgeRenderingTests {
    @Test func oneCatalogServedUnderTwoMediaBasesNeedsNoMigration() async throws {
        let rig = try ServerRig()
        try await rig.store.seed(count: 3)
        let generation = try await rig.store.generation()
        var cdn = rig.server
        cdn.mediaBaseURL = try MediaBaseURL("https://cdn.example.com/reel")
        var urls: [[String]] = []
        for server in [rig.server, cdn] {
            urls.append(
                try await Application(router: server.router()).test(.router) { client in
                    let page = try await client.json("/v1/feed?limit=2")
                    let item = try #require((page["items"] as? [[String: Any]])?.first)
                    let storyboard = item["storyboard"] as? [String: Any]
                    let one = try await client.json("/v1/videos/v000000002")
                    #expect(one["master_url"] as? String == item["master_url"] as? String)
                    return [
                        item["master_url"], item["poster_jpeg_url"], item["poster_webp_url"], storyboard?["vtt_url"],
                    ].compactMap { $0 as? String }
                })
        }
        #expect(
            urls[0] == [
                "/media/videos/v000000002/master.m3u8", "/media/videos/v000000002/poster.jpg",
                "/media/videos/v000000002/poster.webp",
            ])
        #expect(urls[1] == urls[0].map { "https://cdn.example.com/reel/" + $0.dropFirst("/media/".count) })
        // Nothing was written: the same generation, and the catalog holds paths only.
        #expect(try await rig.store.generation() == generation)
        let records = try await rig.store.database.pool.read { db in
            try Data.fetchAll(db, sql: "SELECT item_record FROM videos")
        }
        #expect(records.count == 3 && records.allSatisfy { !String(decoding: $0, as: UTF8.self).contains("/media/") })
    }

    @Test func anEditedVideoIsRenderedAgainOnTheNextPage() async throws {
        let rig = try ServerRig()
        try await rig.store.seed(count: 2)
        try await rig.app.test(.router) { client in
            let before = try #require((try await client.json("/v1/feed?limit=7")["items"] as? [[String: Any]])?.first)
            #expect(before["master_url"] as? String == "/media/videos/v000000001/master.m3u8")
            try await rig.store.database.pool.write { db in
                try db.execute(
                    sql: "UPDATE videos SET master_path = 'videos/moved/master.m3u8' WHERE id = 'v000000001'")
            }
            let after = try #require((try await client.json("/v1/feed?limit=7")["items"] as? [[String: Any]])?.first)
            #expect(after["master_url"] as? String == "/media/videos/moved/master.m3u8")
            #expect(
                try await client.json("/v1/videos/v000000001")["master_url"] as? String
                    == "/media/videos/moved/master.m3u8")
        }
    }
}
