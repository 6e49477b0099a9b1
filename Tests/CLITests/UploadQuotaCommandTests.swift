import Foundation
import MediaFixtures
import Testing

/// Per-token upload quotas through `reel serve`, `reel token create`, `set` and `list` (issue 62): a token over its
/// open uploads, its uploads per hour or its bytes in flight is refused with 429 and `Retry-After` (413 when one
/// upload alone is over the bytes), its own limits win over the server's defaults, and the list shows them.
@Suite(.timeLimit(.minutes(10))) struct UploadQuotaCommandTests {
    @Test func aTokenOverItsQuotaGets429WithRetryAfterAndTokenSetAndListChangeAndShowIt() async throws {
        let directory = try TemporaryDirectory()
        let catalog = directory.file("catalog.sqlite")
        let created = try await ReelProcess.run([
            "token", "create", "--database", catalog, "--name", "phone", "--concurrent-uploads", "2",
        ])
        try #require(created.status == 0, "reel token create: \(created.stderr)")
        let token = created.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(try await Self.listed(catalog)?["concurrent_uploads"] as? Int == 2)

        let server = try ChildProcess([
            ReelProcess.executable, "serve", "--database", catalog, "--library", directory.file("library"),
            "--port", "0", "--token-uploads-per-hour", "5",
        ])
        try await withProcesses([server]) {
            #expect(await listens(server, seconds: 60), "reel serve never said it was listening: \(server.stderr)")
            let base = try #require(
                server.stdout.split(separator: "\n").first?.split(separator: " ").last.map(String.init))
            func create(_ length: Int = 1_000) async throws -> Curl.Answer {
                try await Curl.run([
                    "-X", "POST", "-H", "Tus-Resumable: 1.0.0", "-H", "Upload-Length: \(length)",
                    "-H", "Authorization: Bearer \(token)", base + "/v1/uploads",
                ])
            }

            // The token's own limit: two open uploads.
            #expect(try await create().status == 201)
            #expect(try await create().status == 201)
            let third = try await create()
            #expect(third.status == 429 && third.errorCode == "too_many_open_uploads", "\(third)")
            let retry = Int(third.headers["retry-after"] ?? "")
            #expect(retry.map { (1...60).contains($0) } == true, "Retry-After: \(third)")

            // Back to the server's default (10), which the server sees at the next request.
            try await Self.set(catalog, ["--concurrent-uploads", "default"])
            #expect(try await Self.listed(catalog)?["concurrent_uploads"] is NSNull)
            #expect(try await create().status == 201)

            // The server's default of five uploads an hour: the refused one did not count.
            #expect(try await create().status == 201)
            #expect(try await create().status == 201)
            let sixth = try await create()
            #expect(sixth.status == 429 && sixth.errorCode == "too_many_uploads_this_hour", "\(sixth)")
            let hourRetry = Int(sixth.headers["retry-after"] ?? "")
            #expect(hourRetry.map { (3_000...3_600).contains($0) } == true, "Retry-After: \(sixth)")

            // The token's own hour and bytes: five uploads of 1,000 bytes are open, 1 MB is its limit.
            try await Self.set(catalog, ["--uploads-per-hour", "100", "--bytes-in-flight-mb", "1"])
            let listed = try await Self.listed(catalog)
            #expect(listed?["uploads_per_hour"] as? Int == 100 && listed?["bytes_in_flight"] as? Int == 1_000_000)
            let over = try await create(996_000)
            #expect(over.status == 429 && over.errorCode == "too_many_bytes_in_flight", "\(over)")
            #expect(over.headers["retry-after"] != nil)
            let never = try await create(2_000_000)
            #expect(never.status == 413 && never.errorCode == "exceeds_bytes_in_flight", "\(never)")
            #expect(try await create(995_000).status == 201)
        }
    }

    static func set(_ catalog: String, _ arguments: [String]) async throws {
        let set = try await ReelProcess.run(["token", "set", "--database", catalog, "phone"] + arguments)
        try #require(set.status == 0, "reel token set: \(set.stderr)")
    }

    /// The token as `reel token list --json` shows it.
    static func listed(_ catalog: String) async throws -> [String: Any]? {
        let list = try await ReelProcess.run(["token", "list", "--database", catalog, "--json"])
        try #require(list.status == 0, "reel token list: \(list.stderr)")
        let tokens = try JSONSerialization.jsonObject(with: Data(list.stdout.utf8)) as? [[String: Any]]
        return tokens?.first
    }
}
