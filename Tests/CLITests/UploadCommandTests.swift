import Catalog
import Deadlines
import Foundation
import GRDB
import MediaFixtures
import SQLiteCatalog
import Testing

/// `reel upload` against a real `reel serve --inbox`: the product's flow end to end, through a server that dies.
@Suite(.timeLimit(.minutes(15))) struct UploadCommandTests {
    static func startServer(_ directory: TemporaryDirectory, port: Int) throws -> ChildProcess {
        try ChildProcess([
            ReelProcess.executable, "serve", "--database", directory.file("catalog.sqlite"),
            "--library", directory.file("library"), "--inbox", directory.file("inbox"), "--settle", "0.3",
            "--poll-interval", "0.1", "--port", String(port),
        ])
    }

    /// The server is killed with SIGKILL mid-upload and started again on the same port; `reel upload` resumes from
    /// the offset the server acknowledged, the published original is byte-identical to the file, and it plays.
    @Test func reelUploadSurvivesTheServerBeingKilledMidUploadAndTheVideoPlays() async throws {
        let directory = try TemporaryDirectory()
        try FileManager.default.createDirectory(atPath: directory.file("inbox"), withIntermediateDirectories: true)
        // One request a second (burst 2) for this token: the upload takes seconds, so the kill lands in the middle.
        let created = try await ReelProcess.run([
            "token", "create", "--database", directory.file("catalog.sqlite"), "--name", "phone",
            "--rate-limit", "1",
        ])
        #expect(created.status == 0, "\(created.stderr)")
        let token = created.stdout.trimmingCharacters(in: .whitespacesAndNewlines)

        // Under 10 MB and already fit for the high tier: it goes up as it is (encoded once for the tests that upload).
        let source = try await SharedClip.uploadable()
        let size = try #require(try FileManager.default.attributesOfItem(atPath: source)[.size] as? Int)
        #expect(size > 3_000_000 && size < 10_000_000, "the clip is \(size) bytes")

        let first = try Self.startServer(directory, port: 0)
        #expect(await listens(first), "reel serve never said it was listening: \(first.stderr)")
        let base = first.stdout.split(separator: "\n").first.map { String($0.split(separator: " ").last ?? "") } ?? ""
        let port = try #require(Int(base.split(separator: ":").last ?? ""))

        let client = try ChildProcess(
            [
                ReelProcess.executable, "upload", source, "--server", base, "--token", token,
                "--chunk-mb", "1", "--json", "--caption", "Cut off mid-upload,\nand resumed 🎉", "--title", "Resumed",
            ],
            environment: ["XDG_CACHE_HOME": directory.file("cache"), "HOME": directory.path])
        let store = SQLiteCatalogEngine(database: try SQLiteCatalogDatabase(path: directory.file("catalog.sqlite")))
        // The acknowledged offset. The watch below runs on a thread of its own and reads it through GRDB's synchronous
        // access there; the test itself reads it through the async access.
        let received: @Sendable (Database) throws -> Int64 = { db in
            try Int64.fetchOne(db, sql: "SELECT max(received) FROM uploads") ?? 0
        }
        // Watched, and the server killed, on a thread of its own: the upload lasts about ten seconds, and a test task
        // can resume later than that while CPU-bound tests hold both threads of the concurrency pool.
        let underWay = try await onOwnThread("kills the server once 2 MB are in") {
            let underWay = try ChildProcess.waitUntil(seconds: 60) {
                try store.database.pool.read(received) >= 2_000_000
            }
            first.signal(SIGKILL)
            return underWay
        }
        #expect(underWay, "the upload never got going (2 MB received within 60 s): \(client.stdout)")
        try await first.exit(within: .seconds(30))
        let acknowledged = try await store.database.pool.read(received)
        #expect(acknowledged < Int64(size), "the upload finished before the kill")
        // Every acknowledged byte is on disk and is the source's.
        let partial = try #require(
            try FileManager.default.contentsOfDirectory(atPath: directory.file("library/.uploads")).first)
        let stored = try Data(contentsOf: URL(fileURLWithPath: directory.file("library/.uploads/\(partial)")))
        let original = try Data(contentsOf: URL(fileURLWithPath: source))
        #expect(stored.count >= acknowledged && stored.prefix(Int(acknowledged)) == original.prefix(Int(acknowledged)))

        let server = try Self.startServer(directory, port: port)
        try await withProcesses([server]) {
            #expect(await listens(server), "the restarted reel serve never said it was listening: \(server.stderr)")
            let status = try await client.exit(within: .seconds(600))
            #expect(status == 0, "reel upload: \(client.stdout)\n\(client.stderr)")
            let events = client.stdout.split(separator: "\n").compactMap {
                try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
            }
            // After the restart the client asked the server where it stood and went on from the acknowledged offset.
            #expect(
                events.contains {
                    $0["event"] as? String == "progress" && ($0["bytes"] as? Int).map(Int64.init) == acknowledged
                },
                "\(client.stdout)")
            let done = try #require(events.last { $0["event"] as? String == "done" }, "\(client.stdout)")
            #expect(done["state"] as? String == "published")
            let master = try #require(done["master_url"] as? String)
            #expect(master.hasPrefix(base) && master.hasSuffix("/master.m3u8"))

            let job = try #require(try await store.jobs(state: .published).first)
            // Issue 65: the post's caption and title, and the token's name as its creator, survived the restart.
            let expected = PostFacts(caption: "Cut off mid-upload,\nand resumed 🎉", title: "Resumed", creator: "phone")
            #expect(try await store.video(id: job.id)?.post == expected)
            // The original moves to originals/ just after the publish commits, so it may lag the job's state.
            let originalPath = directory.file("library/originals/\(job.id)")
            let waited = await ChildProcess.suspendUntil(seconds: 30) {
                FileManager.default.fileExists(atPath: originalPath)
            }
            #expect(waited, "\(originalPath) never appeared within 30 s")
            let published = try Data(contentsOf: URL(fileURLWithPath: originalPath))
            #expect(published == original, "the published original is the file, byte for byte")

            let gst = try #require(
                ["/usr/bin/gst-launch-1.0", "/usr/local/bin/gst-launch-1.0"].first {
                    FileManager.default.isExecutableFile(atPath: $0)
                }, "make test installs GStreamer")
            var play = (status: Int32(-1), stdout: "", stderr: "")
            for _ in 1...3 {  // hlsdemux2 sometimes gives up on a saturated machine; a real fault fails every attempt
                play = try await ChildProcess.run(
                    [
                        "/usr/bin/timeout", "120", gst, "playbin3", "uri=\(master)",
                        "video-sink=fakesink sync=false", "audio-sink=fakesink sync=false",
                    ],
                    environment: ["GST_PLUGIN_FEATURE_RANK": "hlsdemux:NONE"], within: .seconds(150))
                if play.status == 0 { break }
            }
            #expect(
                play.status == 0 && play.stdout.contains("Got EOS from element"),
                "gst-launch: \(play.stdout) \(play.stderr)")
        }
    }

    @Test func aFileOverTheLimitIsRefusedLocallyBeforeAnyNetworkUse() async throws {
        let directory = try TemporaryDirectory()
        let listener = try LoopbackListener()
        let huge = directory.file("huge.mp4")
        var header = Data([0, 0, 0, 0x18] + Array("ftypisom".utf8) + [0, 0, 2, 0] + Array("isomiso2".utf8))
        header.append(Data(count: 1000))
        try header.write(to: URL(fileURLWithPath: huge))
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: huge))
        try handle.truncate(atOffset: 60_000_000)
        try handle.close()
        let result = try await ChildProcess.run(
            [
                ReelProcess.executable, "upload", huge, "--server", "http://127.0.0.1:\(listener.port)",
                "--token", "reel_unused",
            ],
            environment: ["XDG_CACHE_HOME": directory.file("cache"), "HOME": directory.path])
        #expect(result.status == 65, "\(result.stderr)")
        #expect(result.stderr.contains("huge.mp4") && result.stderr.contains("50"), "\(result.stderr)")
        #expect(listener.acceptedConnections() == 0)
    }

    /// A post's field over its limit is refused before any network use, naming the option and the limit.
    @Test func aBadCaptionOrTitleIsRefusedLocallyNamingTheOption() async throws {
        let directory = try TemporaryDirectory()
        let listener = try LoopbackListener()
        let clip = try directory.write("clip.mp4", Array("not read".utf8))
        for (option, value, says) in [
            ("--title", "two\nlines", "title holds the control character U+000A"),
            ("--caption", String(repeating: "x", count: 2_201), "caption has 2201 characters; at most 2200"),
        ] {
            let result = try await ChildProcess.run(
                [
                    ReelProcess.executable, "upload", clip, "--server", "http://127.0.0.1:\(listener.port)",
                    "--token", "reel_unused", option, value,
                ],
                environment: ["XDG_CACHE_HOME": directory.file("cache"), "HOME": directory.path])
            #expect(result.status == 64, "\(result.stderr)")
            #expect(result.stderr.contains(option) && result.stderr.contains(says), "\(result.stderr)")
        }
        #expect(listener.acceptedConnections() == 0)
    }
}
