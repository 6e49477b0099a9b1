import Foundation
import MediaFixtures
import Testing

/// `reel webhook` (issue 65): what it refuses and why, a secret shown once and never listed, rotation, removal.
@Suite(.timeLimit(.minutes(5))) struct WebhookCommandTests {
    @Test func endpointsAreAddedRotatedAndRemovedAndBadOnesRefusedWithTheReason() async throws {
        let directory = try TemporaryDirectory()
        let catalog = directory.file("catalog.sqlite")
        func webhook(_ arguments: [String]) async throws -> ReelProcess.Result {
            try await ReelProcess.run(["webhook"] + arguments + ["--database", catalog])
        }
        let refusals: [([String], String)] = [
            (["add", "ftp://example.com/", "--events", "all"], "only http and https URLs are allowed, not ftp"),
            (["add", "https://user:pw@example.com/", "--events", "all"], "user name or password"),
            (["add", "http://169.254.169.254/latest", "--events", "all"], "169.254.169.254 is not a public address"),
            (["add", "http://[::1]:9/", "--events", "all"], "is not a public address"),
            (
                ["add", "https://example.com/", "--events", "video.published,video.exploded"],
                "\"video.exploded\" is not an event"
            ),
        ]
        for (arguments, reason) in refusals {
            let refused = try await webhook(arguments)
            #expect(refused.status == 64 && refused.stderr.contains(reason), "\(arguments): \(refused.stderr)")
        }
        let added = try await webhook([
            "add", "http://127.0.0.1:9/hook", "--events", "video.deleted,video.published", "--allow-private-addresses",
        ])
        #expect(added.status == 0, "\(added.stderr)")
        let secret = added.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(secret.hasPrefix("whsec_") && secret.count == 49, "\(secret)")
        let listed = try await webhook(["list", "--json"])
        let rows = try #require(try JSONSerialization.jsonObject(with: Data(listed.stdout.utf8)) as? [[String: Any]])
        let id = try #require(rows.first?["id"] as? String)
        #expect(rows.count == 1 && rows.first?["events"] as? [String] == ["video.published", "video.deleted"])
        #expect(rows.first?["allow_private_addresses"] as? Bool == true && !listed.stdout.contains(secret))

        let rotated = try await webhook(["rotate", id, "--keep-previous-hours", "2"])
        let next = rotated.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(rotated.status == 0 && next.hasPrefix("whsec_") && next != secret, "\(rotated.stderr)")
        #expect(rotated.stderr.contains("the previous one also signs until"), "\(rotated.stderr)")
        let after = try await webhook(["list"])
        #expect(!after.stdout.contains(secret) && !after.stdout.contains(next))
        let unknown = try await webhook(["rotate", "whe_0000000000000000"])
        #expect(unknown.status == 64 && unknown.stderr.contains("no webhook endpoint"), "\(unknown.stderr)")
        let tooLong = try await webhook(["rotate", id, "--keep-previous-hours", "1000"])
        #expect(tooLong.status == 64 && tooLong.stderr.contains("from 0 to 720"), "\(tooLong.stderr)")

        #expect(try await webhook(["remove", id]).status == 0)
        #expect(try await webhook(["list"]).stdout.isEmpty)
        let again = try await webhook(["remove", id])
        #expect(again.status == 64 && again.stderr.contains("no webhook endpoint"), "\(again.stderr)")
    }
}
