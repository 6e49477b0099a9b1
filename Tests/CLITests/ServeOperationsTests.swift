import Foundation
import MediaFixtures
import Testing

/// `reel serve`'s operations surface as a process (issue 62): `/metrics` on a loopback port of its own, printed after
/// the line scripts wait for, and never on the public port; and a server that says it listens only once it is ready.
@Suite(.timeLimit(.minutes(10))) struct ServeOperationsTests {
    /// A seeded catalog served with `options`, once it says it listens.
    static func serve(_ directory: TemporaryDirectory, _ options: [String] = []) async throws -> ChildProcess {
        #expect(
            try await ReelProcess.run(["db", "seed", "--database", directory.file("c.sqlite"), "--count", "5"]).status
                == 0)
        let server = try ChildProcess(
            [
                ReelProcess.executable, "serve", "--database", directory.file("c.sqlite"),
                "--library", directory.file("library"), "--port", "0",
            ] + options)
        #expect(await listens(server), "reel serve never said it was listening: \(server.stderr)")
        return server
    }

    static func base(_ server: ChildProcess) throws -> String {
        try #require(server.stdout.split(separator: "\n").first?.split(separator: " ").last.map(String.init))
    }

    @Test func metricsAreOnALoopbackPortOfTheirOwnAndNotOnThePublicOne() async throws {
        let directory = try TemporaryDirectory()
        let server = try await Self.serve(directory)
        try await withProcesses([server]) {
            let base = try Self.base(server)
            let admin = try #require(adminBase(server), "\(server.stdout)")
            #expect(admin.hasPrefix("http://127.0.0.1:") && admin != base)
            #expect(try await DBCopyCommandTests.get(base + "/v1/feed").status == 200)
            let hidden = try await DBCopyCommandTests.get(base + "/metrics")
            #expect(hidden.status == 404 && !hidden.body.contains("reel_http"), "\(hidden)")
            let metrics = try await DBCopyCommandTests.get(admin + "/metrics")
            #expect(metrics.status == 200)
            #expect(
                metrics.body.contains(#"reel_http_requests_total{method="GET",route="/v1/feed",status="200"} 1"#),
                "\(metrics.body)")
            #expect(try await DBCopyCommandTests.get(admin + "/readyz").status == 200)
            #expect(try await DBCopyCommandTests.get(base + "/readyz").body == #"{"status":"ready"}"#)
        }
    }

    @Test func adminListenOffServesMetricsNowhere() async throws {
        let directory = try TemporaryDirectory()
        let server = try await Self.serve(directory, ["--admin-listen", "off"])
        try await withProcesses([server]) {
            #expect(adminBase(server) == nil, "\(server.stdout)")
            let hidden = try await DBCopyCommandTests.get(try Self.base(server) + "/metrics")
            #expect(hidden.status == 404)
        }
    }

    /// The first ranking is made before "listening on": the very first page is 200, never `ranking_not_ready`.
    @Test func anEngagingServerAnswersTheFeedAsSoonAsItSaysItListens() async throws {
        let directory = try TemporaryDirectory()
        let server = try await Self.serve(directory, ["--feed-order", "engaging"])
        try await withProcesses([server]) {
            let first = try await DBCopyCommandTests.get(try Self.base(server) + "/v1/feed?limit=2")
            #expect(first.status == 200, "\(first)")
            #expect(try await DBCopyCommandTests.get(try Self.base(server) + "/readyz").status == 200)
        }
    }

    @Test func operationsOptionsOutsideTheirRangesAreUsageErrors() async throws {
        let directory = try TemporaryDirectory()
        let database = directory.file("c.sqlite"), library = directory.file("library")
        for (option, value, expected) in [
            ("--admin-listen", "9464", "--admin-listen \"9464\" has no :PORT"),
            ("--admin-listen", "0.0.0.0:99999", "has a port that is not a number from 0 to 65535"),
            ("--request-timeout", "0", "--request-timeout must be from 0.1 to 3600 seconds"),
            ("--request-timeout", "inf", "--request-timeout must be from 0.1 to 3600 seconds"),
            ("--min-body-rate", "0", "--min-body-rate must be from 1 to 1000000000"),
            ("--max-connections", "2000000", "--max-connections must be from 0 (no cap) to 1000000"),
        ] {
            let run = try await ReelProcess.run(
                ["serve", "--database", database, "--library", library, option, value], within: .seconds(120))
            #expect(run.status == 64, "\(option) \(value): \(run.status) \(run.stderr)")
            #expect(run.stderr.contains(expected), "\(option) \(value): \(run.stderr)")
        }
    }
}
