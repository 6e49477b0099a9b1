import Foundation
import MediaFixtures
import TestServers
import TestTraits
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// `reel serve` takes viewers' events on SQLite and on PostgreSQL: batches posted at once from many connections are
/// all answered 204, a kill -9 right after the last 204 loses none of them, and the figures rolled up by the next
/// server count every view.
@Suite(.offThePool, .timeLimit(.minutes(10))) struct ServeEventsTests {
    enum Engine: String, CaseIterable, Sendable { case sqlite, postgres }

    /// A running server and the base URL it printed.
    typealias Served = (server: ChildProcess, base: String)

    /// `reel serve` on `database` with `options` added, once it listens.
    static func serve(_ database: String, library: String, options: [String] = []) async throws -> Served {
        let server = try ChildProcess(
            [
                ReelProcess.executable, "serve", "--database", database, "--library", library, "--port", "0",
                "--log-level", "warning",
            ] + options)
        guard await listens(server, seconds: 60),
            let base = server.stdout.split(separator: "\n").first?.split(separator: " ").last.map(String.init)
        else {
            server.signal(SIGKILL)
            throw DBCopyCommandTests.ServeFailed(description: "reel serve did not listen: \(server.stderr)")
        }
        return (server, base)
    }

    /// One view of `video` by session `session`: its start and its end, completed.
    static func view(_ session: Int, video: String) -> String {
        """
        [{"type":"view_start","session":"s\(session)","video":"\(video)","rendition":"360p","startup_ms":\(200 + session)},
         {"type":"view_end","session":"s\(session)","video":"\(video)","watched_s":15,"completed":true,"bytes":1000}]
        """
    }

    @Test(arguments: Engine.allCases)
    func everyAcknowledgedBatchSurvivesAKill9(engine: Engine) async throws {
        let directory = try TemporaryDirectory()
        let postgres = engine == .postgres ? try await PostgresTestServer() : nil
        let database: String
        if let postgres {
            try await postgres.createDatabase("events")
            database = postgres.url(database: "events")
        } else {
            database = directory.file("catalog.sqlite")
        }
        let seeded = try await ReelProcess.run(["db", "seed", "--database", database, "--count", "1"])
        try #require(seeded.status == 0, "\(seeded.stderr)")
        let library = directory.file("library")
        let video = "v000000000"

        let (first, base) = try await Self.serve(database, library: library)
        // 120 batches from 12 connections at once, so the server groups them.
        let batches = 120
        let statuses = try await withThrowingTaskGroup(of: [String].self) { group in
            for worker in 0..<12 {
                group.addTask {
                    var statuses: [String] = []
                    for session in stride(from: worker, to: batches, by: 12) {
                        let posted = try await ChildProcess.run([
                            "/usr/bin/curl", "-s", "-o", "/dev/null", "-w", "%{http_code}", "--max-time", "60",
                            "-H", "Content-Type: application/json", "--data-binary",
                            Self.view(session, video: video), base + "/v1/events",
                        ])
                        statuses.append(posted.stdout)
                    }
                    return statuses
                }
            }
            return try await group.reduce(into: []) { $0 += $1 }
        }
        #expect(statuses.count == batches && statuses.allSatisfy { $0 == "204" }, "\(Set(statuses))")
        first.signal(SIGKILL)
        _ = try await first.exit(within: .seconds(30))

        let (second, secondBase) = try await Self.serve(database, library: library)
        try await withProcesses([second]) {
            var body = ""
            var figures: [String: Any] = [:]
            // The roll-up runs as the server starts, then once a minute.
            let counted = try await ChildProcess.suspendUntil(seconds: 90) {
                let stats = try await ChildProcess.run([
                    "/usr/bin/curl", "-s", "--max-time", "10", secondBase + "/v1/videos/\(video)/stats",
                ])
                body = stats.stdout
                figures = (try? JSONSerialization.jsonObject(with: Data(body.utf8))) as? [String: Any] ?? [:]
                return figures["views"] as? Int == batches
            }
            #expect(counted, "\(body) \(second.stderr.suffix(2000))")
            #expect(figures["sessions"] as? Int == batches && figures["completion_rate"] as? Double == 1, "\(body)")
            // `reel stats` reads the same figures from the catalog.
            let json = try await ReelProcess.run(["stats", "--database", database, "--video", video, "--json"])
            let printed = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any]
            #expect(
                printed?["views"] as? Int == batches && printed?["startup_median_ms"] as? Int == 259,
                "\(json.stdout) \(json.stderr)")
            let table = try await ReelProcess.run(["stats", "--database", database])
            #expect(table.status == 0)
            #expect(
                table.stdout.split(separator: "\n").last?.split(separator: " ", omittingEmptySubsequences: true)
                    .prefix(4) == ["v000000000", "120", "120", "259"], "\(table.stdout)")
            let unseen = try await ReelProcess.run(["stats", "--database", database, "--video", "v9"])
            #expect(unseen.status != 0 && unseen.stderr.contains("video v9 has no figures"), "\(unseen.stderr)")
        }
        if let postgres { await postgres.stop() }
    }
}
