import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import MediaFixtures
import Testing

/// `reel serve` as a process: it prints where it listens, answers, and exits 0 on SIGTERM.
@Suite struct ServeCommandTests {
    @Test func servesThenStopsCleanlyOnSIGTERM() async throws {
        let directory = try TemporaryDirectory()
        let seeded = try ReelProcess.run(["db", "seed", "--database", directory.file("c.sqlite"), "--count", "30"])
        #expect(seeded.status == 0, "\(seeded.stderr)")
        let server = try ChildProcess([ReelProcess.executable, "serve", "--database", directory.file("c.sqlite"),
                                       "--library", directory.file("library"), "--port", "0"])
        #expect(ChildProcess.waitUntil(seconds: 20) { server.stdout.hasPrefix("listening on http://127.0.0.1:") }, "\(server.stderr)")
        let base = try #require(server.stdout.split(separator: "\n").first?.split(separator: " ").last.map(String.init))
        let (data, response) = try await URLSession.shared.data(from: try #require(URL(string: base + "/v1/feed?limit=50")))
        #expect((response as? HTTPURLResponse)?.statusCode == 200)
        let page = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        #expect((page["items"] as? [Any])?.count == 30)
        server.signal(SIGTERM)
        #expect(server.wait() == 0, "\(server.stderr)")
    }

    @Test(arguments: [["--port", "70000"], ["--rate-limit", "0"], ["--log-level", "loud"], ["--io-threads", "0"]])
    func badOptionsAreRefusedBeforeBinding(arguments: [String]) throws {
        let result = try ReelProcess.run(["serve", "--database", "/nonexistent/c.sqlite", "--library", "/nonexistent"] + arguments)
        #expect(result.status == 64, "\(result.stderr)")
        #expect(result.stderr.contains("--"), "\(result.stderr)")
    }
}
