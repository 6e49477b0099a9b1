import Foundation
import MediaFixtures
import TestServers
import TestTraits
import Testing
import Transcode

#if canImport(Glibc)
import Glibc
#endif

/// `reel serve --library s3://...`: a ladder made by Reel's transcoder, copied into SeaweedFS with `reel library
/// copy`, served from the store (streamed, and redirected to presigned URLs), checked by `reel hls-check` over HTTP
/// and by curl; and a store that stops answering is a 503 with Retry-After.
@Suite(.offThePool, .timeLimit(.minutes(10))) struct ServeFromObjectStoreTests {
    struct Fetched {
        let status: Int
        let headers: [String: String]
        let body: [UInt8]
    }

    /// One request with curl (no redirects followed unless asked), its status, lower-cased headers and body.
    static func fetch(_ url: String, _ options: [String] = []) async throws -> Fetched {
        let scratch = try TemporaryDirectory()
        let result = try await ChildProcess.run(
            [
                "/usr/bin/curl", "-s", "--max-time", "30", "-D", scratch.file("h"), "-o", scratch.file("b"),
                "-w", "%{http_code}",
            ] + options + [url])
        let head = (try? String(contentsOfFile: scratch.file("h"), encoding: .utf8)) ?? ""
        var headers: [String: String] = [:]
        // After a followed redirect the last response's headers win.
        for line in head.split(separator: "\r\n") {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(
                in: .whitespaces)
        }
        let body = (try? Data(contentsOf: URL(fileURLWithPath: scratch.file("b")))).map(Array.init) ?? []
        return Fetched(status: Int(result.stdout) ?? 0, headers: headers, body: body)
    }

    static func serve(_ arguments: [String], environment: [String: String]) async throws -> (ChildProcess, String) {
        let process = try ChildProcess(
            [ReelProcess.executable, "serve", "--port", "0", "--log-level", "warning"] + arguments,
            environment: environment)
        guard await listens(process, seconds: 60),
            let base = process.stdout.split(separator: "\n").first?.split(separator: " ").last.map(String.init)
        else {
            process.signal(SIGKILL)
            throw DBCopyCommandTests.ServeFailed(
                description: "reel serve \(arguments) did not say it was listening: \(process.stderr.suffix(2000))")
        }
        return (process, base)
    }

    @Test func aLadderInTheStoreIsServedStreamedAndRedirected() async throws {
        let directory = try TemporaryDirectory()
        let source = directory.file("clip.mp4")
        try SyntheticVideo(width: 180, height: 320, seconds: 4).write(to: source)
        let library = directory.file("library")
        try FileManager.default.createDirectory(atPath: library + "/videos", withIntermediateDirectories: true)
        let summary = try LadderTranscoder(preset: HLSCheckCommandTests.preset).run(
            source: source, output: library + "/videos/v1")
        try directory.write("library/originals/v1", Array("private original".utf8))
        let store = try await SeaweedTestServer()
        let url = store.libraryURL(prefix: "lib")
        let copy = try await ReelProcess.run(
            ["library", "copy", "--from", library, "--to", url], environment: store.environment)
        try #require(copy.status == 0, "\(copy.stderr)")

        let database = directory.file("catalog.sqlite")
        // Nothing held in memory: every answer here is the store's, passed on (MediaCacheFromObjectStoreTests has
        // the held ones).
        let (streaming, base) = try await Self.serve(
            ["--database", database, "--library", url, "--media-cache-mb", "0"], environment: store.environment)
        let (redirecting, redirectBase) = try await Self.serve(
            ["--database", database, "--library", url, "--media-redirect", "--media-redirect-seconds", "120"],
            environment: store.environment)
        try await withProcesses([streaming, redirecting]) {
            let master = base + "/media/videos/v1/master.m3u8"
            let check = try await ReelProcess.run(["hls-check", master, "--json"])
            #expect(check.status == 0 && check.json["passed"] as? Bool == true, "\(check.stdout)\(check.stderr)")

            let playlist = try await Self.fetch(master)
            #expect(playlist.status == 200 && playlist.headers["content-type"] == "application/vnd.apple.mpegurl")
            #expect(playlist.headers["cache-control"] == "public, max-age=10")
            #expect(
                playlist.body == Array(try Data(contentsOf: URL(fileURLWithPath: library + "/videos/v1/master.m3u8"))))

            let rendition = try #require(summary.renditions.first)
            let segmentPath = "videos/v1/" + (rendition.playlist as NSString).deletingLastPathComponent + "/init.mp4"
            let local = Array(try Data(contentsOf: URL(fileURLWithPath: library + "/" + segmentPath)))
            let head = try await Self.fetch(base + "/media/" + segmentPath, ["-I"])
            #expect(head.status == 200 && head.headers["content-length"] == String(local.count))
            #expect(head.headers["content-type"] == "video/mp4")
            #expect(head.headers["cache-control"] == "public, max-age=31536000, immutable")
            let etag = try #require(head.headers["etag"])
            let part = try await Self.fetch(base + "/media/" + segmentPath, ["-r", "0-99"])
            #expect(part.status == 206 && part.body == Array(local[0..<100]))
            #expect(part.headers["content-range"] == "bytes 0-99/\(local.count)")
            #expect(
                try await Self.fetch(base + "/media/" + segmentPath, ["-H", "If-None-Match: \(etag)"]).status == 304)
            for hidden in ["originals/v1", "videos/v1/..%2F..%2Foriginals%2Fv1", "videos/v1/missing.m4s", ".uploads/x"]
            {
                #expect(try await Self.fetch(base + "/media/" + hidden).status == 404, "\(hidden)")
            }

            let redirect = try await Self.fetch(redirectBase + "/media/" + segmentPath)
            #expect(redirect.status == 302)
            let location = try #require(redirect.headers["location"])
            #expect(location.hasPrefix(store.endpoint + "/" + store.bucket + "/lib/" + segmentPath + "?"))
            #expect(location.contains("X-Amz-Expires=120") && location.contains("X-Amz-Signature="))
            #expect(!location.contains(store.secretAccessKey))
            let followed = try await Self.fetch(redirectBase + "/media/" + segmentPath, ["-L"])
            #expect(followed.status == 200 && followed.body == local)
            // The bucket is private: the same object without the signature is refused.
            #expect(try await Self.fetch(String(location.prefix { $0 != "?" })).status == 403)
            let checkRedirected = try await ReelProcess.run([
                "hls-check", redirectBase + "/media/videos/v1/master.m3u8",
            ])
            #expect(checkRedirected.status == 0, "\(checkRedirected.stdout)\(checkRedirected.stderr)")

            await store.stop()
            let away = try await Self.fetch(base + "/media/" + segmentPath)
            #expect(away.status == 503 && away.headers["retry-after"] == "5")
            #expect(String(decoding: away.body, as: UTF8.self).contains("storage_unavailable"))
            try await store.start()
            #expect(try await Self.fetch(base + "/media/" + segmentPath).body == local)
        }
    }

    /// `reel serve --inbox` with the library in the store: the worker runs in the server, its scratch space in
    /// the inbox, and what lands in the inbox is served from the store.
    @Test func anInboxBesideAServerOnTheStorePublishesIntoTheStore() async throws {
        let directory = try TemporaryDirectory()
        let inbox = directory.file("inbox")
        try FileManager.default.createDirectory(atPath: inbox, withIntermediateDirectories: true)
        let ladder = try directory.write("ladder.json", text: TestLadder.twoRungJSON)
        let store = try await SeaweedTestServer.shared()
        let (server, base) = try await Self.serve(
            [
                "--database", directory.file("c.sqlite"), "--library",
                store.libraryURL(prefix: SeaweedTestServer.newPrefix()), "--inbox",
                inbox,
                "--settle", "0.2", "--poll-interval", "0.1", "--ladder", ladder,
            ], environment: store.environment)
        let clip = directory.file(".clip.mp4")
        try SyntheticVideo(width: 320, height: 180, seconds: 2).write(to: clip)
        try FileManager.default.moveItem(atPath: clip, toPath: inbox + "/clip.mp4")
        var feed = Fetched(status: 0, headers: [:], body: [])
        let published = try await ChildProcess.suspendUntil(seconds: 120) {
            feed = try await Self.fetch(base + "/v1/feed")
            return String(decoding: feed.body, as: UTF8.self).contains(".e1/master.m3u8")
        }
        let body = String(decoding: feed.body, as: UTF8.self)
        #expect(published, "\(body) \(server.stderr.suffix(2000))")
        let master = try #require(
            body.split(separator: "\"").first { $0.hasSuffix(".e1/master.m3u8") }.map(String.init))
        let check = try await ReelProcess.run(["hls-check", master.hasPrefix("http") ? master : base + master])
        #expect(check.status == 0, "\(check.stdout) \(check.stderr)")
        server.signal(SIGTERM)
    }

    @Test func optionsThatNeedTheOtherKindOfLibraryAreRefused() async throws {
        let directory = try TemporaryDirectory()
        let redirect = try await ReelProcess.run([
            "serve", "--database", directory.file("c.sqlite"), "--library", directory.file("library"),
            "--media-redirect",
        ])
        #expect(redirect.status != 0 && redirect.stderr.contains("--media-redirect needs an s3:// library"))
    }
}
