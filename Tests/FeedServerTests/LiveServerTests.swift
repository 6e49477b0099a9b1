import Catalog
import FeedServer
import Foundation
import Hummingbird
import HummingbirdTesting
import MediaFixtures
import MediaStore
import MediaStoreDirectory
import SQLiteCatalog
import TestTraits
import Testing
import Transcode

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The server on a real socket with a real client: URLSession pages the whole feed. (GStreamer playing from a
/// `reel serve` process is in CLITests: in this process, synchronous tests running beside it can starve the
/// server's handlers of the concurrency pool.)
@Suite(.offThePool, .timeLimit(.minutes(10))) struct LiveServerTests {
    @Test func aRealHTTPClientPagesTheWholeFeed() async throws {
        let directory = try TemporaryDirectory()
        let store = SQLiteCatalogEngine(database: try SQLiteCatalogDatabase(path: directory.file("catalog.sqlite")))
        try await store.seed(count: 23)
        let source = directory.file("upload.mp4")
        try SyntheticVideo(width: 640, height: 360, seconds: 4).write(to: source)
        try FileManager.default.createDirectory(
            atPath: directory.file("library/videos"), withIntermediateDirectories: true)
        let summary = try LadderTranscoder().run(source: source, output: directory.file("library/videos/live1"))
        try await store.publish(
            PublishedVideo(
                id: "live1", createdAt: 1, publishedAt: Int64(Date().timeIntervalSince1970 * 1000),
                durationMilliseconds: Int(summary.durationSeconds * 1000), width: 640, height: 360,
                contentHash: "live1", source: nil,
                masterPath: "videos/live1/master.m3u8", posterJPEGPath: "videos/live1/" + summary.posterJPEG,
                posterWebPPath: "videos/live1/" + summary.posterWebP,
                renditions: summary.renditions.map {
                    FeedVideo.Rendition(
                        rung: $0.id, width: $0.width, height: $0.height, bandwidth: $0.bandwidth,
                        averageBandwidth: $0.averageBandwidth, codecs: $0.codecs, segments: $0.segments)
                }))
        let server = FeedServer(store: store, media: try .directory(directory.file("library")))

        try await Application(router: server.router(), configuration: .init(address: .hostname("127.0.0.1", port: 0)))
            .test(.live) { client in
                let port = try #require(client.port)
                var ids: [String] = []
                var next: String? = "/v1/feed?limit=5"
                while let path = next {
                    let (data, response) = try await URLSession.shared.data(
                        from: URL(string: "http://127.0.0.1:\(port)\(path)")!)
                    #expect((response as? HTTPURLResponse)?.statusCode == 200)
                    let page = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
                    ids += (page["items"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? String }
                    next = (page["next_cursor"] as? String).map { "/v1/feed?limit=5&cursor=\($0)" }
                }
                #expect(ids.count == 24 && Set(ids).count == 24)
                #expect(ids.first == "live1")

            }
    }
}
