import Deadlines
import Foundation
import MediaFixtures
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// `reel upload --visibility private` end to end (issue 65): the post is published in no feed, and the client's last
/// line names its master through a signed URL, which plays, while the plain URL is refused.
@Suite(.timeLimit(.minutes(10))) struct PrivateUploadCommandTests {
    @Test func aPrivateUploadEndsWithASignedURLThatPlays() async throws {
        let directory = try TemporaryDirectory()
        try FileManager.default.createDirectory(atPath: directory.file("inbox"), withIntermediateDirectories: true)
        let token = try await DeleteCommandTests.token(directory, "phone")
        let server = try DeleteCommandTests.serve(directory, port: 0)
        try await withProcesses([server]) {
            #expect(await listens(server), "reel serve never said it was listening: \(server.stderr)")
            let base = server.stdout.split(separator: "\n").first.map { String($0.split(separator: " ").last ?? "") }
            let source = directory.file("clip.mp4")
            try await onOwnThread("encodes the clip to upload") {
                try SyntheticVideo(width: 320, height: 240, seconds: 2).write(to: source)
            }
            let upload = try await ChildProcess.run(
                [
                    ReelProcess.executable, "upload", source, "--server", base ?? "", "--token", token, "--json",
                    "--visibility", "private",
                ],
                environment: ["XDG_CACHE_HOME": directory.file("cache"), "HOME": directory.path],
                within: .seconds(300))
            #expect(upload.status == 0, "\(upload.stdout) \(upload.stderr)")
            let done = upload.stdout.split(separator: "\n").compactMap {
                try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
            }.last { $0["event"] as? String == "done" }
            let master = try #require(done?["master_url"] as? String, "\(upload.stdout)")
            #expect(master.contains("/media/s/"), "\(master)")
            let (_, signed) = try await URLSession.shared.data(from: try #require(URL(string: master)))
            #expect((signed as? HTTPURLResponse)?.statusCode == 200)
            let plain = try #require(
                URL(string: master.replacingOccurrences(of: #"/s/[^/]+/"#, with: "/", options: .regularExpression)))
            let (_, refused) = try await URLSession.shared.data(from: plain)
            #expect((refused as? HTTPURLResponse)?.statusCode == 403, "\(plain)")
            let (feed, _) = try await URLSession.shared.data(from: try #require(URL(string: (base ?? "") + "/v1/feed")))
            #expect(String(decoding: feed, as: UTF8.self).contains(#""items":[]"#), "in no feed")
        }
    }
}
