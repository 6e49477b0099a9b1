import Catalog
import Foundation
import MediaFixtures
import SQLiteCatalog
import TestServers
import Testing
import ViewerAnalytics

/// `reel db copy`: a SQLite catalog moved into PostgreSQL serves the same feed, byte for byte, from the same library.
/// HTTP goes through curl, and every wait for a child suspends, so no CLI test holds a thread of the concurrency pool.
@Suite(.timeLimit(.minutes(10))) struct DBCopyCommandTests {
    @Test func aCopiedCatalogServesTheSameFeedAndARepeatedCopyIsRefused() async throws {
        let directory = try TemporaryDirectory()
        let sqlite = directory.file("catalog.sqlite")
        #expect(try await ReelProcess.run(["db", "seed", "--database", sqlite, "--count", "2500"]).status == 0)
        #expect(
            try await ReelProcess.run([
                "token", "create", "--database", sqlite, "--name", "phone app", "--rate-limit", "3",
            ]).status == 0)
        // Viewers' events and figures move too, with their ids.
        let events = SQLiteCatalogEngine(database: try SQLiteCatalogDatabase(path: sqlite))
        try await events.appendViewerEvents(
            (0..<3).map {
                ReceivedViewerEvent(
                    receivedAt: 1_000 + Int64($0),
                    event: ViewerEvent(session: "tab", video: "v000000007", kind: .stall(milliseconds: 100 * $0)))
            })
        // A webhook endpoint with a delivery still owed (a deleted post's), which PostgreSQL must go on numbering.
        try await events.addWebhookEndpoint(
            WebhookEndpoint(
                id: "whe_0000000000000001", url: "https://hooks.example.com/reel", events: [.deleted],
                secret: "whsec_copy", allowsPrivateAddresses: false, createdAt: 1))
        try await events.insertJob(
            id: "gone", sourceName: Array("gone.mp4".utf8), bytes: 1, owner: "intake", now: 4, leaseMilliseconds: 1)
        let now = Int64(Date().timeIntervalSince1970 * 1000)
        #expect(try await events.removePost(id: "gone", reason: "admin", now: now) != .notFound)
        let server = try await PostgresTestServer()
        try await server.createDatabase("moved")
        let url = server.url(database: "moved")

        let copied = try await ReelProcess.run(["db", "copy", "--from", sqlite, "--to", url, "--batch", "700"])
        #expect(copied.status == 0, "\(copied.stderr)")
        let counts = Dictionary(
            uniqueKeysWithValues: copied.stdout.split(separator: "\n").compactMap { line -> (String, Int)? in
                let parts = line.split(separator: "\t")
                return parts.count == 2 ? (String(parts[0]), Int(parts[1]) ?? -1) : nil
            })
        #expect(
            counts == [
                "videos": 2500, "renditions": 7500, "upload_tokens": 1, "uploads": 0, "images": 0, "jobs": 0,
                "viewer_events": 3, "video_stats": 0, "feed_rankings": 0, "tombstones": 1, "webhook_endpoints": 1,
                "webhook_deliveries": 1,
            ],
            "\(copied.stdout)")
        #expect(
            copied.stderr.contains("copy: videos 2500/2500 (100 %)") && copied.stderr.contains("row counts match"),
            "\(copied.stderr)")
        #expect(try await ReelProcess.run(["token", "list", "--database", url]).stdout.contains("phone app"))

        // Both catalogs, served side by side: the same pages, the same ETags (the generation carried over), and a
        // cursor from one server works on the other.
        let library = directory.file("library")
        let fromSQLite = try await Self.serve(sqlite, library: library)
        let fromPostgres = try await Self.serve(url, library: library)
        // Writes to one catalog, feed reads from another (a replica in production; the SQLite copy here).
        let split = try await Self.serve(url, library: library, reading: sqlite)
        try await withProcesses([fromSQLite.process, fromPostgres.process, split.process]) {
            let first = try await Self.get(fromSQLite.base + "/v1/feed?limit=50")
            #expect(first.status == 200)
            #expect(try await Self.get(fromPostgres.base + "/v1/feed?limit=50") == first)
            #expect(try await Self.get(split.base + "/v1/feed?limit=50") == first)
            #expect(try await Self.get(split.base + "/healthz").status == 200)
            let cursor =
                try #require(try JSONSerialization.jsonObject(with: Data(first.body.utf8)) as? [String: Any])[
                    "next_cursor"] as? String
            let deep = try await Self.get(fromSQLite.base + "/v1/feed?limit=20&cursor=" + #require(cursor))
            #expect(deep.status == 200 && deep.body.contains("v000002449"))
            #expect(try await Self.get(fromPostgres.base + "/v1/feed?limit=20&cursor=" + #require(cursor)) == deep)
            #expect(
                try await Self.get(fromPostgres.base + "/v1/videos/v000000007")
                    == Self.get(fromSQLite.base + "/v1/videos/v000000007"))
            // PostgreSQL's pages take the event-loop fast path too: kept pages against the generation NOTIFY announced,
            // others after their query, without the router.
            let metrics = try await Self.get(#require(adminBase(fromPostgres.process)) + "/metrics").body
            let fast = metrics.split(separator: "\n").first { $0.hasPrefix("reel_feed_fast_path_responses_total ") }
            #expect((fast?.split(separator: " ").last.flatMap { Double($0) } ?? 0) >= 2, "\(metrics.prefix(3000))")
            // New events on PostgreSQL take ids after the copied ones.
            let posted = try await ViewerSessionClient.post(
                #"[{"type":"stall","video":"v000000007","duration_ms":5}]"#,
                token: try await ViewerSessionClient.token(fromPostgres.base), to: fromPostgres.base)
            #expect(posted == "204")
            // A video published through PostgreSQL reaches the PostgreSQL server's kept first page within moments.
            #expect(try await ReelProcess.run(["db", "seed", "--database", url, "--count", "1"]).status == 0)
            let appeared = try await ChildProcess.suspendUntil(seconds: 10) {
                try await Self.get(fromPostgres.base + "/v1/feed?limit=1").body.contains("v000002500")
            }
            #expect(appeared, "v000002500 was not on the PostgreSQL server's first page within 10 s")
            // A deletion through PostgreSQL queues its webhook after the copied delivery.
            #expect(
                try await ReelProcess.run(["delete", "v000000002", "--database", url, "--library", library]).status == 0
            )
            let hooks = try await ReelProcess.run(["webhook", "list", "--json", "--database", url])
            #expect(hooks.stdout.contains(#""pending":2"#), "\(hooks.stdout) \(hooks.stderr)")
            #expect(try await Self.get(fromPostgres.base + "/v1/feed?limit=50").etag != first.etag)

            let again = try await ReelProcess.run(["db", "copy", "--from", sqlite, "--to", url])
            #expect(again.status != 0)
            #expect(
                again.stderr.contains("not empty") && again.stderr.contains("videos has 2500 rows"), "\(again.stderr)")
            #expect(
                !again.stderr.contains("Usage:") && !again.stderr.contains("PostgresTransactionError"),
                "\(again.stderr)")
            let notPostgres = try await ReelProcess.run([
                "db", "copy", "--from", sqlite, "--to", directory.file("other.sqlite"),
            ])
            #expect(
                notPostgres.status != 0 && notPostgres.stderr.contains("--to must be a postgres:// URL"),
                "\(notPostgres.stderr)")
        }
    }

    struct Served {
        let process: ChildProcess
        let base: String
    }

    static func serve(_ database: String, library: String, reading replica: String? = nil) async throws -> Served {
        let process = try ChildProcess(
            [
                ReelProcess.executable, "serve", "--database", database, "--library", library, "--port", "0",
                "--log-level", "warning",
            ] + (replica.map { ["--database-read", $0] } ?? []))
        guard await listens(process, prefix: "listening on http://", seconds: 60),
            let base = process.stdout.split(separator: "\n").first?.split(separator: " ").last.map(String.init)
        else {
            process.signal(SIGKILL)
            throw ServeFailed(
                description:
                    "reel serve --database \(database) did not say it was listening within 60 s: \(process.stderr.suffix(2000))"
            )
        }
        return Served(process: process, base: base)
    }

    struct ServeFailed: Error, CustomStringConvertible {
        let description: String
    }

    struct Answer: Equatable {
        let status: Int
        let etag: String
        let body: String
    }

    /// GET with curl: status, ETag and body.
    static func get(_ url: String) async throws -> Answer {
        let headers = try TemporaryDirectory()
        let result = try await ChildProcess.run([
            "/usr/bin/curl", "-s", "--max-time", "30", "-D", headers.file("h"), "-w", "\n%{http_code}", url,
        ])
        let lines = result.stdout.split(separator: "\n", omittingEmptySubsequences: false)
        let head = (try? String(contentsOfFile: headers.file("h"), encoding: .utf8)) ?? ""
        let etag = head.split(separator: "\r\n").first { $0.lowercased().hasPrefix("etag:") }.map {
            String($0.dropFirst(5)).trimmingCharacters(in: .whitespaces)
        }
        return Answer(
            status: Int(lines.last ?? "") ?? 0, etag: etag ?? "", body: lines.dropLast().joined(separator: "\n"))
    }
}
