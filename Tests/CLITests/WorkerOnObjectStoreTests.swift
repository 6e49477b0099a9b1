import Catalog
import Foundation
import MediaFixtures
import SQLiteCatalog
import TestServers
import TestTraits
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// `reel worker --library s3://...` on real media and a real SeaweedFS: uploads become a feed served from the store,
/// with nothing of the library on the worker's disk; and a library URL or credentials that will not do are clear
/// errors that never echo a secret.
@Suite(.offThePool, .timeLimit(.minutes(10))) struct WorkerOnObjectStoreTests {
    @Test func uploadsBecomeAFeedServedFromTheStore() async throws {
        let directory = try TemporaryDirectory()
        let inbox = directory.file("inbox")
        try FileManager.default.createDirectory(atPath: inbox, withIntermediateDirectories: true)
        let clip = directory.file("clip.mp4")
        try SyntheticVideo(width: 320, height: 180, seconds: 2).write(to: clip)
        try FileManager.default.copyItem(atPath: clip, toPath: inbox + "/clip.mp4")
        try directory.write("inbox/photo.png", try SyntheticImage.png(width: 300, height: 200, alpha: false))
        try directory.write("inbox/notes.txt", Array("not media".utf8))
        let store = try await SeaweedTestServer.shared()
        let url = store.libraryURL(prefix: SeaweedTestServer.newPrefix() + "/media")
        let database = directory.file("catalog.sqlite")

        // Two rungs, so the small clip makes a ladder hls-check passes (one variant is a MUST failure).
        let ladder = try directory.write("ladder.json", text: TestLadder.twoRungJSON)
        let worker = try await ReelProcess.run(
            [
                "worker", "--inbox", inbox, "--library", url, "--database", database, "--once", "--json", "--settle",
                "0",
                "--ladder", ladder,
            ],
            environment: store.environment)
        #expect(worker.status == 0, "\(worker.stderr.suffix(3000))")
        let reports = worker.stdout.split(separator: "\n").compactMap {
            try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }
        let states = Dictionary(
            uniqueKeysWithValues: reports.map { ($0["file"] as? String ?? "", $0["state"] as? String ?? "") })
        #expect(states == ["clip.mp4": "published", "photo.png": "published", "notes.txt": "rejected"], "\(reports)")
        // Nothing of the library stays on the worker's disk: the scratch space is empty, the inbox too.
        #expect(try FileManager.default.contentsOfDirectory(atPath: inbox) == [".scratch"])
        for folder in [".incoming", ".staging", "videos", "images", "originals"] {
            let entries = (try? FileManager.default.contentsOfDirectory(atPath: inbox + "/.scratch/" + folder)) ?? []
            #expect(entries.isEmpty, "\(folder): \(entries)")
        }
        #expect(!worker.stderr.contains(store.secretAccessKey), "the secret is never logged")

        let video = try #require(reports.first { $0["file"] as? String == "clip.mp4" }?["job"] as? String)
        let image = try #require(reports.first { $0["file"] as? String == "photo.png" }?["job"] as? String)
        let rejected = try #require(reports.first { $0["file"] as? String == "notes.txt" }?["job"] as? String)
        let (server, base) = try await ServeFromObjectStoreTests.serve(
            ["--database", database, "--library", url], environment: store.environment)
        defer { server.signal(SIGKILL) }
        let feed = try await ServeFromObjectStoreTests.fetch(base + "/v1/feed")
        let body = String(decoding: feed.body, as: UTF8.self)
        #expect(feed.status == 200 && body.contains("/media/videos/\(video).e1/master.m3u8"), "\(body)")
        let check = try await ReelProcess.run(["hls-check", base + "/media/videos/\(video).e1/master.m3u8"])
        #expect(check.status == 0, "\(check.stdout) \(check.stderr)")
        let webp = try await ServeFromObjectStoreTests.fetch(base + "/media/images/\(image).e1.webp")
        #expect(webp.status == 200 && webp.headers["content-type"] == "image/webp" && webp.body.count > 100)
        #expect(webp.headers["cache-control"] == "public, max-age=31536000, immutable")
        // The original and the refusal's reason are in the store, private: /media/ never serves them.
        #expect(try await ServeFromObjectStoreTests.fetch(base + "/media/originals/\(video)").status == 404)
        let copy = directory.file("copy")
        let back = try await ReelProcess.run(
            ["library", "copy", "--from", url, "--to", copy], environment: store.environment)
        #expect(back.status == 0, "\(back.stderr)")
        #expect(
            try Data(contentsOf: URL(fileURLWithPath: copy + "/originals/\(video)"))
                == Data(contentsOf: URL(fileURLWithPath: clip)), "the original is byte-identical")
        let reason = try #require(
            try JSONSerialization.jsonObject(
                with: Data(contentsOf: URL(fileURLWithPath: copy + "/rejected/\(rejected).reason.json")))
                as? [String: Any])
        #expect(reason["state"] as? String == "rejected" && reason["original_name"] as? String == "notes.txt")
    }

    @Test func aBadLibraryURLOrMissingCredentialsIsAClearError() async throws {
        let directory = try TemporaryDirectory()
        let inbox = directory.file("inbox")
        try FileManager.default.createDirectory(atPath: inbox, withIntermediateDirectories: true)
        let database = directory.file("catalog.sqlite")
        let noBucket = try await ReelProcess.run([
            "worker", "--inbox", inbox, "--library", "s3://", "--database", database, "--once",
        ])
        #expect(noBucket.status != 0 && noBucket.stderr.contains("bucket"), "\(noBucket.stderr)")
        let noKeys = try await ReelProcess.run(
            [
                "worker", "--inbox", inbox, "--library", "s3://reel/lib?endpoint=http://127.0.0.1:9", "--database",
                database, "--once",
            ],
            environment: [
                "AWS_ACCESS_KEY_ID": "", "AWS_SECRET_ACCESS_KEY": "",
                "AWS_SHARED_CREDENTIALS_FILE": directory.file("none"),
            ])
        #expect(noKeys.status != 0 && noKeys.stderr.contains("AWS_ACCESS_KEY_ID"), "\(noKeys.stderr)")
    }
}
