import Catalog
import Deadlines
import Foundation
import MediaFixtures
import SQLiteCatalog
import Testing
import Transcode

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// `reel serve` as a process: it prints where it listens, answers, and exits 0 on SIGTERM.
@Suite(.timeLimit(.minutes(10))) struct ServeCommandTests {
    @Test func servesThenStopsCleanlyOnSIGTERM() async throws {
        let directory = try TemporaryDirectory()
        let seeded = try await ReelProcess.run([
            "db", "seed", "--database", directory.file("c.sqlite"), "--count", "30",
        ])
        #expect(seeded.status == 0, "\(seeded.stderr)")
        let server = try ChildProcess([
            ReelProcess.executable, "serve", "--database", directory.file("c.sqlite"),
            "--library", directory.file("library"), "--port", "0",
        ])
        #expect(await listens(server), "reel serve never said it was listening: \(server.stderr)")
        let base = try #require(server.stdout.split(separator: "\n").first?.split(separator: " ").last.map(String.init))
        let (data, response) = try await URLSession.shared.data(
            from: try #require(URL(string: base + "/v1/feed?limit=50")))
        #expect((response as? HTTPURLResponse)?.statusCode == 200)
        let page = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        #expect((page["items"] as? [Any])?.count == 30)
        server.signal(SIGTERM)
        #expect(try await server.exit(within: .seconds(60)) == 0, "\(server.stderr)")
    }

    /// The cache is per process, the catalog is shared: a video published by another process (`reel db seed`,
    /// which publishes through the same catalog path as the worker) is on the very next request.
    @Test func aVideoPublishedByAnotherProcessIsOnTheNextRequest() async throws {
        let directory = try TemporaryDirectory()
        let catalog = directory.file("c.sqlite")
        #expect(try await ReelProcess.run(["db", "seed", "--database", catalog, "--count", "30"]).status == 0)
        let server = try ChildProcess([
            ReelProcess.executable, "serve", "--database", catalog,
            "--library", directory.file("library"), "--port", "0",
        ])
        #expect(await listens(server), "reel serve never said it was listening: \(server.stderr)")
        let base = try #require(server.stdout.split(separator: "\n").first?.split(separator: " ").last.map(String.init))
        // No client-side cache: the server's answer is what is under test.
        let configuration = URLSessionConfiguration.ephemeral
        configuration.urlCache = nil
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        let session = URLSession(configuration: configuration)
        func firstPage() async throws -> (first: String?, etag: String?) {
            let (data, response) = try await session.data(from: try #require(URL(string: base + "/v1/feed?limit=5")))
            let page = try JSONSerialization.jsonObject(with: data) as? [String: Any]
            let first = (page?["items"] as? [[String: Any]])?.first?["id"] as? String
            return (first, (response as? HTTPURLResponse)?.value(forHTTPHeaderField: "ETag"))
        }

        let before = try await firstPage()
        #expect(try await firstPage().etag == before.etag)  // served from the cache
        #expect(before.first == "v000000029")
        for expected in ["v000000030", "v000000031"] {
            let published = try await ReelProcess.run(["db", "seed", "--database", catalog, "--count", "1"])
            #expect(published.status == 0, "\(published.stderr)")
            let after = try await firstPage()
            #expect(after.first == expected)
            #expect(after.etag != before.etag)
        }
        server.signal(SIGTERM)
        #expect(try await server.exit(within: .seconds(60)) == 0, "\(server.stderr)")
    }

    @Test func gstreamerPlaysAPublishedVideoFromTheServerToEOS() async throws {
        let directory = try TemporaryDirectory()
        let store = SQLiteCatalogEngine(database: try SQLiteCatalogDatabase(path: directory.file("c.sqlite")))
        let source = directory.file("upload.mp4")
        try FileManager.default.createDirectory(
            atPath: directory.file("library/videos"), withIntermediateDirectories: true)
        // An encode and a ladder in this process: on a thread of their own, not on the concurrency pool's two.
        let summary = try await onOwnThread("encodes and transcodes live1") {
            try SyntheticVideo(width: 640, height: 360, seconds: 4).write(to: source)
            return try LadderTranscoder().run(source: source, output: directory.file("library/videos/live1"))
        }
        try await store.publish(
            PublishedVideo(
                id: "live1", createdAt: 1, publishedAt: 1_800_000_000_000,
                durationMilliseconds: Int(summary.durationSeconds * 1000),
                width: 640, height: 360, contentHash: "live1", source: nil, masterPath: "videos/live1/master.m3u8",
                posterJPEGPath: "videos/live1/poster.jpg", posterWebPPath: "videos/live1/poster.webp",
                renditions: summary.renditions.map {
                    FeedVideo.Rendition(
                        rung: $0.id, width: $0.width, height: $0.height, bandwidth: $0.bandwidth,
                        averageBandwidth: $0.averageBandwidth, codecs: $0.codecs, segments: $0.segments)
                }))
        let server = try ChildProcess([
            ReelProcess.executable, "serve", "--database", directory.file("c.sqlite"),
            "--library", directory.file("library"), "--port", "0", "--log-level", "debug",
        ])
        #expect(await listens(server), "reel serve never said it was listening: \(server.stderr)")
        let base = try #require(server.stdout.split(separator: "\n").first?.split(separator: " ").last.map(String.init))
        let gst = try #require(
            ["/usr/bin/gst-launch-1.0", "/usr/local/bin/gst-launch-1.0"].first {
                FileManager.default.isExecutableFile(atPath: $0)
            }, "make test installs GStreamer")
        // GStreamer's hlsdemux2 itself sometimes gives up ("Couldn't download fragments", or aborts) when the machine
        // is saturated by the parallel tests, against python's http.server as well; a real fault fails every attempt.
        var play = (status: Int32(-1), stdout: "", stderr: "")
        for _ in 1...3 {
            play = try await ChildProcess.run(
                [
                    "/usr/bin/timeout", "120", gst, "playbin3", "uri=\(base)/media/videos/live1/master.m3u8",
                    "video-sink=fakesink sync=false", "audio-sink=fakesink sync=false",
                ],
                environment: ["GST_PLUGIN_FEATURE_RANK": "hlsdemux:NONE"], within: .seconds(150))
            if play.status == 0 { break }
        }
        #expect(play.status == 0, "gst-launch: \(play.stdout) \(play.stderr)\nserver: \(server.stderr.suffix(6000))")
        #expect(play.stdout.contains("Got EOS from element"), "\(play.stdout)")
        #expect(!play.stdout.contains("ERROR") && !play.stderr.contains("ERROR"), "\(play.stdout) \(play.stderr)")
        server.signal(SIGTERM)
        #expect(try await server.exit(within: .seconds(60)) == 0)
    }

    /// One catalog served with a CDN base, then with the default: each run's items point where its flag says, through
    /// the fast path and the router alike, and the catalog file is not written between them.
    @Test func theMediaBaseURLIsAFlagNotAMigration() async throws {
        let directory = try TemporaryDirectory()
        let catalog = directory.file("c.sqlite")
        #expect(try await ReelProcess.run(["db", "seed", "--database", catalog, "--count", "3"]).status == 0)
        var masters: [[String]] = []
        var generations: [String] = []
        for base in ["https://cdn.example.com/reel", nil] {
            let server = try ChildProcess(
                [
                    ReelProcess.executable, "serve", "--database", catalog, "--library", directory.file("library"),
                    "--port", "0",
                ] + (base.map { ["--media-base-url", $0] } ?? []))
            #expect(await listens(server), "reel serve never said it was listening: \(server.stderr)")
            let url = try #require(
                server.stdout.split(separator: "\n").first?.split(separator: " ").last.map(String.init))
            var seen: [String] = []
            // Plain (the fast path), with a percent-escape the fast path leaves to the router, and one video.
            for path in ["/v1/feed?limit=1", "/v1/feed?limit=%31", "/v1/videos/v000000002"] {
                let (data, response) = try await URLSession.shared.data(from: try #require(URL(string: url + path)))
                #expect((response as? HTTPURLResponse)?.statusCode == 200, "\(path)")
                let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
                let item = (object["items"] as? [[String: Any]])?.first ?? object
                seen.append(try #require(item["master_url"] as? String))
                if let etag = (response as? HTTPURLResponse)?.value(forHTTPHeaderField: "ETag"),
                    path.hasPrefix("/v1/feed?limit=1")
                {
                    generations.append(String(etag.dropFirst().prefix { $0 != "." }))
                }
            }
            masters.append(seen)
            server.signal(SIGTERM)
            #expect(try await server.exit(within: .seconds(60)) == 0, "\(server.stderr)")
        }
        #expect(masters[0] == Array(repeating: "https://cdn.example.com/reel/videos/v000000002/master.m3u8", count: 3))
        #expect(masters[1] == Array(repeating: "/media/videos/v000000002/master.m3u8", count: 3))
        #expect(
            generations.count == 2 && generations[0] == generations[1], "the catalog's generation moved: \(generations)"
        )
    }

    @Test(arguments: [
        ["--port", "70000"], ["--rate-limit", "0"], ["--log-level", "loud"], ["--io-threads", "0"],
        ["--media-base-url", "//cdn.example.com/"], ["--media-base-url", "cdn.example.com"],
    ])
    func badOptionsAreRefusedBeforeBinding(arguments: [String]) async throws {
        let result = try await ReelProcess.run(
            ["serve", "--database", "/nonexistent/c.sqlite", "--library", "/nonexistent"] + arguments)
        #expect(result.status == 64, "\(result.stderr)")
        #expect(result.stderr.contains(arguments[0]), "\(result.stderr)")
    }
}
