import Catalog
import Foundation
import MediaFixtures
import MediaModel
import SQLiteCatalog
import Testing

/// A real `reel serve` against the OpenAPI description it serves: schemathesis (`Tests/Contract/run_schemathesis.sh`)
/// sends every operation examples, edge cases and fuzzed input, and checks that nothing is a 5xx and that every
/// status, content type, header and body is one the description names.
@Suite(.timeLimit(.minutes(10))) struct OpenAPIContractTests {
    static let runner = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Contract/run_schemathesis.sh").path

    /// Once as it is, and once with a rate limit low enough that most answers are the 429 every operation describes.
    /// The second needs fewer examples to meet every 429, and the two run at once: on a loaded clean clone
    /// (2026-11-28, two `make test` side by side on 2 cores) 50 examples each took schemathesis 288 s of a 300 s bound.
    @Test(arguments: [([], 50), (["--rate-limit", "5"], 15)])
    func theServerAnswersAsItsOpenAPIDescriptionSays(serveOptions: [String], examples: Int) async throws {
        let directory = try TemporaryDirectory()
        let catalog = directory.file("c.sqlite")
        let seeded = try await ReelProcess.run(["db", "seed", "--database", catalog, "--count", "30"])
        #expect(seeded.status == 0, "\(seeded.stderr)")
        // The jobs the description's examples name, so their 200s are checked too: one queued, one rejected.
        let store = SQLiteCatalogEngine(database: try SQLiteCatalogDatabase(path: catalog))
        try await store.insertJob(
            id: "45e721da56e24bb8ac2c", sourceName: Array("clip.mp4".utf8), bytes: 1_000, owner: "contract", now: 1,
            leaseMilliseconds: 60_000)
        try await store.insertJob(
            id: "8d1f0a6b2c9e4f7a5b3c", sourceName: Array("notes.m3u8".utf8), bytes: 200, owner: "contract", now: 2,
            leaseMilliseconds: 60_000)
        try await store.finishJob(
            JobLease(id: "8d1f0a6b2c9e4f7a5b3c", epoch: 0, owner: "contract"),
            as: .rejected(Rejection(.forbiddenFormat, "an HLS playlist", path: "notes.m3u8")), kind: nil, now: 3)
        // The newest video has H.264, HEVC and AV1 renditions with their CRFs (one fixed, without a target), and a
        // caption, title and creator, so every first page shows each item and rendition key the description names.
        let rungs: [(id: String, codec: String, codecs: String, crf: Double, target: Double?)] = [
            ("720p", "h264", "avc1.64001f,mp4a.40.2", 22.7, 0.968),
            ("720p-hevc", "hevc", "hvc1.1.6.L93.90,mp4a.40.2", 27.1, 0.968),
            ("720p-av1", "av1", "av01.0.05M.08,mp4a.40.2", 37, nil),
        ]
        try await store.publish(
            PublishedVideo(
                id: "multicodec", createdAt: 1_800_000_000_000, publishedAt: 1_800_000_000_000,
                durationMilliseconds: 8_000, width: 720,
                height: 1280, contentHash: "multicodec", source: nil, masterPath: "videos/multicodec/master.m3u8",
                posterJPEGPath: "videos/multicodec/poster.jpg", posterWebPPath: "videos/multicodec/poster.webp",
                renditions: rungs.map {
                    FeedVideo.Rendition(
                        rung: $0.id, width: 720, height: 1280, bandwidth: 1_600_000, averageBandwidth: 1_400_000,
                        codecs: $0.codecs, segments: 4, videoCodec: $0.codec, crf: $0.crf, targetSSIMY: $0.target)
                }, post: PostFacts(caption: "Three codecs,\none \"post\" <b>", title: "Ladder", creator: "contract")))

        // The files the description's /media/ examples name, so its 200, 206, 304 and 416 answers are checked.
        let video = directory.file("library/videos/v000000029")
        try FileManager.default.createDirectory(atPath: video + "/360p", withIntermediateDirectories: true)
        try Data("#EXTM3U\n#EXT-X-VERSION:7\n".utf8).write(to: URL(fileURLWithPath: video + "/master.m3u8"))
        try Data((0..<3_000).map { UInt8(truncatingIfNeeded: $0) }).write(
            to: URL(fileURLWithPath: video + "/poster.jpg"))
        try Data((0..<5_000).map { UInt8(truncatingIfNeeded: $0 * 7) }).write(
            to: URL(fileURLWithPath: video + "/360p/seg_000.m4s"))
        try Data("WEBVTT\n\n00:00:00.000 --> 00:00:01.000\nstoryboard.webp#xywh=0,0,160,284\n".utf8)
            .write(to: URL(fileURLWithPath: video + "/storyboard.vtt"))

        let created = try await ReelProcess.run(["token", "create", "--database", catalog, "--name", "contract"])
        #expect(created.status == 0, "\(created.stderr)")
        let token = created.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        // The post the description's DELETE example names, uploaded with this token: its 200 is checked, then 404.
        let contract = try #require(try await store.tokens().first { $0.name == "contract" })
        try await store.createUpload(
            UploadRecord(
                id: "0c0ffee0c0ffee0c0ffe", tokenID: contract.id, length: 10, metadata: "", filename: [0x61],
                createdAt: 1, updatedAt: 1, expiresAt: .max))
        try await store.assignUploadJob(id: "0c0ffee0c0ffee0c0ffe", jobID: "0c0ffee0c0ffee0c0ffe", now: 2)
        var deletable = SyntheticVideos.video(40)
        deletable.id = "0c0ffee0c0ffee0c0ffe"
        deletable.contentHash = "deletable"
        try await store.publish(deletable)

        let server = try ChildProcess(
            [
                ReelProcess.executable, "serve", "--database", catalog,
                "--library", directory.file("library"), "--port", "0",
            ] + serveOptions)
        #expect(await listens(server), "reel serve never said it was listening: \(server.stderr)")
        let base = try #require(server.stdout.split(separator: "\n").first?.split(separator: " ").last.map(String.init))

        // The uploads too, with a real token: schemathesis creates, patches, reads and terminates them.
        let run = try await ChildProcess.run(
            [
                "/usr/bin/timeout", "480", "/bin/bash", Self.runner, base,
                "--token", token, "--max-examples", String(examples),
            ], within: .seconds(510))
        let output = "\(run.stdout)\n\(run.stderr)"
        #expect(run.status == 0, "schemathesis: \(output)\nserver: \(server.stderr.suffix(4000))")
        // Every operation but GET /openapi.yaml itself, which schemathesis leaves out as the schema's own URL
        // (OpenAPIRouteTests covers it).
        let tested = output.firstMatch(of: /Tested: (\d+)/).flatMap { Int($0.1) }
        #expect((tested ?? 0) >= 25, "schemathesis tested \(tested.map(String.init) ?? "no") operations: \(output)")
        // Its DELETE example was deleted, so that answer's body was checked against the description too (with a rate
        // limit, that request may have been a 429 instead).
        if !serveOptions.contains("--rate-limit") {
            #expect(try await store.tombstone(id: "0c0ffee0c0ffee0c0ffe")?.reason == "creator", "\(output)")
        }

        server.signal(SIGTERM)
        #expect(try await server.exit(within: .seconds(60)) == 0, "\(server.stderr)")
    }
}
