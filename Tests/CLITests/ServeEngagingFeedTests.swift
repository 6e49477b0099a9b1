import Foundation
import MediaFixtures
import TestServers
import TestTraits
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// `reel serve --feed-order engaging` on one PostgreSQL catalog from two servers: both page through the same stored
/// ranking, and a cursor from one goes on at the other, through the whole feed with no video twice or missing.
@Suite(.offThePool, .timeLimit(.minutes(10))) struct ServeEngagingFeedTests {
    static func serve(_ database: String, library: String) async throws -> ServeEventsTests.Served {
        try await ServeEventsTests.serve(database, library: library, options: ["--feed-order", "engaging"])
    }

    static func page(_ url: String) async throws -> (status: String, json: [String: Any]) {
        let fetched = try await ChildProcess.run([
            "/usr/bin/curl", "-s", "-w", "\n%{http_code}", "--max-time", "10", url,
        ])
        let lines = fetched.stdout.split(separator: "\n", omittingEmptySubsequences: false)
        let body = lines.dropLast().joined(separator: "\n")
        let json = (try? JSONSerialization.jsonObject(with: Data(body.utf8))) as? [String: Any] ?? [:]
        return (String(lines.last ?? ""), json)
    }

    @Test func twoServersShareTheRankingAndEachOthersCursors() async throws {
        let directory = try TemporaryDirectory()
        let postgres = try await PostgresTestServer()
        try await postgres.createDatabase("engaging")
        let database = postgres.url(database: "engaging")
        let seeded = try await ReelProcess.run(["db", "seed", "--database", database, "--count", "23"])
        try #require(seeded.status == 0, "\(seeded.stderr)")
        let library = directory.file("library")
        let (first, firstBase) = try await Self.serve(database, library: library)
        let (second, secondBase) = try await Self.serve(database, library: library)
        try await withProcesses([first, second]) {
            // Each server makes the first ranking as it starts; until one exists the first page is a 503.
            var opening: [String: Any] = [:]
            let ranked = try await ChildProcess.suspendUntil(seconds: 30) {
                let answer = try await Self.page(firstBase + "/v1/feed?limit=5")
                opening = answer.json
                return answer.status == "200"
            }
            #expect(ranked, "\(opening) \(first.stderr.suffix(2000))")
            // Both servers made the same order from the same catalog, so both first pages agree.
            let other = try await Self.page(secondBase + "/v1/feed?limit=5")
            let itemIDs = { (page: [String: Any]) in
                (page["items"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? String }
            }
            #expect(other.status == "200" && itemIDs(other.json) == itemIDs(opening), "\(other.json)")
            var ids = (opening["items"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? String }
            var cursor = opening["next_cursor"] as? String
            var hops = 0
            while let next = cursor {
                // Alternate servers: each page continues the other's cursor.
                let base = hops % 2 == 0 ? secondBase : firstBase
                let answer = try await Self.page(base + "/v1/feed?limit=5&cursor=\(next)")
                #expect(answer.status == "200", "\(answer.json)")
                ids += (answer.json["items"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? String }
                cursor = answer.json["next_cursor"] as? String
                hops += 1
                try #require(hops < 10, "the pages never ended: \(ids)")
            }
            #expect(ids.count == 23 && Set(ids).count == 23, "\(ids)")
            // No views yet: the engaging order falls back to newest first.
            #expect(ids == (0..<23).reversed().map { String(format: "v%09d", $0) })
        }
    }

    @Test func anUnknownOrderIsRefusedWithTheChoices() async throws {
        let directory = try TemporaryDirectory()
        let run = try await ReelProcess.run([
            "serve", "--database", directory.file("c.sqlite"), "--library", directory.file("library"),
            "--feed-order", "popular",
        ])
        #expect(run.status != 0)
        #expect(run.stderr.contains("--feed-order must be recent or engaging, not \"popular\""), "\(run.stderr)")
    }
}
