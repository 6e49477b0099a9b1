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
/// server count every view. The next server takes the first one's session tokens: both sign with the key file it
/// made in the library (`.session-key`, mode 0600).
@Suite(.offThePool, .timeLimit(.minutes(10))) struct ServeEventsTests {
    enum Engine: String, CaseIterable, Sendable { case sqlite, postgres }

    /// A running server and the base URL it printed.
    typealias Served = (server: ChildProcess, base: String)

    /// `reel serve` on `database` with `options` (and `environment`) added, once it listens.
    static func serve(
        _ database: String, library: String, options: [String] = [], environment: [String: String] = [:]
    ) async throws -> Served {
        let server = try ChildProcess(
            [
                ReelProcess.executable, "serve", "--database", database, "--library", library, "--port", "0",
                "--log-level", "warning",
            ] + options, environment: environment)
        guard await listens(server, seconds: 60),
            let base = server.stdout.split(separator: "\n").first?.split(separator: " ").last.map(String.init)
        else {
            server.signal(SIGKILL)
            throw DBCopyCommandTests.ServeFailed(description: "reel serve did not listen: \(server.stderr)")
        }
        return (server, base)
    }

    /// View number `view` of `video`: its start and its end, completed.
    static func view(_ view: Int, video: String) -> String {
        """
        [{"type":"view_start","video":"\(video)","rendition":"360p","startup_ms":\(200 + view)},
         {"type":"view_end","video":"\(video)","watched_s":15,"completed":true,"bytes":1000}]
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
        let keyFile = library + "/.session-key"
        let mode = try FileManager.default.attributesOfItem(atPath: keyFile)[.posixPermissions] as? NSNumber
        #expect(mode?.intValue == 0o600)
        // 120 batches from 12 connections at once, so the server groups them: 12 sessions (tabs), 10 views each.
        let batches = 120
        let tabs = 12
        var tokens: [String] = []
        for _ in 0..<tabs { tokens.append(try await ViewerSessionClient.token(base)) }
        let statuses = try await withThrowingTaskGroup(of: [String].self) { group in
            for (worker, token) in tokens.enumerated() {
                group.addTask {
                    var statuses: [String] = []
                    for view in stride(from: worker, to: batches, by: tabs) {
                        statuses.append(
                            try await ViewerSessionClient.post(Self.view(view, video: video), token: token, to: base))
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
            // The same key file, so the first server's sessions go on here.
            #expect(
                try await ViewerSessionClient.post(
                    #"[{"type":"error","message":"restarted"}]"#, token: tokens[0], to: secondBase)
                    == "204")
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
            #expect(figures["sessions"] as? Int == tabs && figures["completion_rate"] as? Double == 1, "\(body)")
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
                    .prefix(4) == ["v000000000", "120", "12", "259"], "\(table.stdout)")
            let unseen = try await ReelProcess.run(["stats", "--database", database, "--video", "v9"])
            #expect(unseen.status != 0 && unseen.stderr.contains("video v9 has no figures"), "\(unseen.stderr)")
        }
        if let postgres { await postgres.stop() }
    }
}
