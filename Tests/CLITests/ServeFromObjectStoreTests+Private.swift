import Catalog
import Foundation
import MediaFixtures
import SQLiteCatalog
import TestServers
import Testing
import Transcode

/// A private post's files from object storage with `--media-redirect` (issue 65): the presigned URL a signed request
/// is sent to expires no later than the signed URL itself, and an unsigned request is refused before any is made.
extension ServeFromObjectStoreTests {
    @Test func aPrivatePostsRedirectExpiresNoLaterThanItsSignedURL() async throws {
        let directory = try TemporaryDirectory()
        let source = directory.file("clip.mp4")
        try SyntheticVideo(width: 180, height: 320, seconds: 2).write(to: source)
        let library = directory.file("library")
        try FileManager.default.createDirectory(atPath: library + "/videos", withIntermediateDirectories: true)
        let summary = try LadderTranscoder(preset: HLSCheckCommandTests.preset).run(
            source: source, output: library + "/videos/v1")
        let store = try await SeaweedTestServer()
        let url = store.libraryURL(prefix: "lib")
        let copy = try await ReelProcess.run(
            ["library", "copy", "--from", library, "--to", url], environment: store.environment)
        try #require(copy.status == 0, "\(copy.stderr)")
        let database = directory.file("catalog.sqlite")
        let catalog = SQLiteCatalogEngine(database: try SQLiteCatalogDatabase(path: database))
        try await catalog.publish(
            PublishedVideo(
                id: "v1", createdAt: 1, publishedAt: 2, durationMilliseconds: 2_000, width: 180, height: 320,
                contentHash: "v1", source: nil, masterPath: "videos/v1/master.m3u8",
                posterJPEGPath: "videos/v1/" + summary.posterJPEG, posterWebPPath: "videos/v1/" + summary.posterWebP,
                renditions: [], post: PostFacts(visibility: .private)))
        let created = try await ReelProcess.run(["token", "create", "--database", database, "--name", "ops", "--admin"])
        let admin = created.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        let keys = try directory.write("playback.key", text: String(repeating: "cd", count: 32) + "\n")
        chmod(keys, 0o600)
        let (server, base) = try await Self.serve(
            [
                "--database", database, "--library", url, "--media-redirect", "--media-redirect-seconds", "600",
                "--playback-key-file", keys,
            ], environment: store.environment)
        try await withProcesses([server]) {
            let item = try await Self.fetch(
                base + "/v1/videos/v1?expires_in=60", ["-H", "Authorization: Bearer \(admin)"])
            #expect(item.status == 200, "\(String(decoding: item.body, as: UTF8.self))")
            let object = try JSONSerialization.jsonObject(with: Data(item.body)) as? [String: Any]
            let master = try #require(object?["master_url"] as? String)
            #expect(master.hasPrefix("/media/s/"))
            let redirect = try await Self.fetch(base + master)
            #expect(redirect.status == 302)
            let location = try #require(redirect.headers["location"])
            let expires = location.firstMatch(of: /X-Amz-Expires=(\d+)/).flatMap { Int($0.1) }
            #expect(expires.map { $0 <= 60 && $0 > 0 } == true, "the store's URL outlives the signed one: \(location)")
            #expect(redirect.headers["cache-control"] == "private, max-age=60")
            let followed = try await Self.fetch(base + master, ["-L"])
            #expect(followed.status == 200 && followed.body.starts(with: Array("#EXTM3U".utf8)))
            let unsigned = try await Self.fetch(base + "/media/videos/v1/master.m3u8")
            #expect(unsigned.status == 403 && unsigned.headers["location"] == nil)
        }
    }
}
