import Catalog
import Foundation
import MediaFixtures
import SQLiteCatalog
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

#if canImport(Glibc)
import Glibc
#endif

/// What an app does with a post, end to end on the embedded default (issue 65's judged path on SQLite and the
/// library directory): `reel upload` with a caption, the webhook heard and verified by a receiver Reel did not write,
/// the post played, made private (its old URLs 403, signed ones 200, expired ones 403), deleted while `reel serve` is
/// killed between the catalog's commit and the files, the deletion's webhook delivered by a server killed in the
/// middle of posting it, and every event received exactly once after the receiver's de-duplication.
@Suite(.timeLimit(.minutes(10))) struct AppLifecycleWebhookTests {
    static func serve(
        _ directory: TemporaryDirectory, port: Int, fault: String? = nil, webhookTimeout: Double = 2
    ) throws -> ChildProcess {
        try ChildProcess(
            [
                ReelProcess.executable, "serve", "--database", directory.file("catalog.sqlite"),
                "--library", directory.file("library"), "--inbox", directory.file("inbox"), "--settle", "0.3",
                "--poll-interval", "0.1", "--port", String(port), "--webhook-backoff-seconds", "0.2",
                "--webhook-backoff-max-seconds", "1", "--webhook-timeout-seconds", String(webhookTimeout),
            ], environment: fault.map { ["REEL_FAULT_INJECTION": $0] } ?? [:])
    }

    static func status(_ url: String, method: String = "GET", token: String? = nil, body: String? = nil) async -> Int? {
        guard let target = URL(string: url) else { return nil }
        var request = URLRequest(url: target)
        request.httpMethod = method
        if let token { request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization") }
        if let body {
            request.httpBody = Data(body.utf8)
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        }
        guard let (_, response) = try? await URLSession.shared.data(for: request) else { return nil }
        return (response as? HTTPURLResponse)?.statusCode
    }

    /// The master URL `GET /v1/videos/{id}` gives the post's owner (signed when the post is private), absolute.
    static func signedMaster(_ base: String, _ id: String, token: String, expiresIn: Int) async throws -> String {
        var request = URLRequest(url: try #require(URL(string: "\(base)/v1/videos/\(id)?expires_in=\(expiresIn)")))
        request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization")
        let (data, _) = try await URLSession.shared.data(for: request)
        let item = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let master = try #require(item["master_url"] as? String, "\(item)")
        return master.hasPrefix("/") ? base + master : master
    }

    @Test func anAppsPostFromUploadToDeletionWithEveryWebhookOnce() async throws {
        let directory = try TemporaryDirectory()
        try FileManager.default.createDirectory(atPath: directory.file("inbox"), withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: directory.file("hooks"), withIntermediateDirectories: true)
        let owner = try await DeleteCommandTests.token(directory, "phone")
        let admin = try await DeleteCommandTests.token(directory, "ops", admin: true)
        let hookPort = try FreePort.pick()
        let added = try await ReelProcess.run([
            "webhook", "add", "http://127.0.0.1:\(hookPort)/reel", "--events", "all", "--allow-private-addresses",
            "--database", directory.file("catalog.sqlite"),
        ])
        #expect(added.status == 0, "\(added.stderr)")
        let secret = added.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(secret.hasPrefix("whsec_"), "\(added.stdout)")
        var receiver = try WebhookReceiver(directory: directory.file("hooks"), port: hookPort, secret: secret)
        #expect(await receiver.listening(), "the receiver never listened: \(receiver.process.stderr)")
        let source = try await SharedClip.uploadable()

        // Upload with a caption; the app hears of it by webhook.
        let first = try Self.serve(directory, port: 0)
        #expect(await listens(first), "reel serve never said it was listening: \(first.stderr)")
        let base = first.stdout.split(separator: "\n").first.map { String($0.split(separator: " ").last ?? "") } ?? ""
        let port = try #require(Int(base.split(separator: ":").last ?? ""))
        let (id, plain): (String, String) = try await withProcesses([first]) {
            let upload = try await ChildProcess.run(
                [
                    ReelProcess.executable, "upload", source, "--server", base, "--token", owner, "--json",
                    "--caption", "first post 🎬",
                ],
                environment: ["XDG_CACHE_HOME": directory.file("cache"), "HOME": directory.path],
                within: .seconds(400))
            #expect(upload.status == 0, "reel upload: \(upload.stdout)\n\(upload.stderr)")
            let store = SQLiteCatalogEngine(database: try SQLiteCatalogDatabase(path: directory.file("catalog.sqlite")))
            let id = try #require(try await store.jobs(state: .published).first?.mediaID)
            let heard = await ChildProcess.suspendUntil(seconds: 30) {
                !receiver.events("video.published", id: id).isEmpty
            }
            #expect(heard, "no video.published for \(id): \(receiver.attempts) \(first.stderr.suffix(2000))")
            let published = try #require(receiver.events("video.published", id: id).first?["data"] as? [String: Any])
            #expect(
                published["visibility"] as? String == "public"
                    && published["video_url"] as? String == "/v1/videos/\(id)")
            let plain = try await Self.signedMaster(base, id, token: owner, expiresIn: 600)
            #expect(!plain.contains("/media/s/") && plain.hasSuffix("/master.m3u8"), "\(plain)")
            #expect(await Self.status(plain) == 200, "it plays")

            // Private: the old URL is refused, a signed one plays, an expired one is refused.
            #expect(
                await Self.status(
                    "\(base)/v1/videos/\(id)", method: "PATCH", token: owner, body: #"{"visibility":"private"}"#) == 200
            )
            #expect(await Self.status(plain) == 403)
            let signed = try await Self.signedMaster(base, id, token: owner, expiresIn: 600)
            #expect(await Self.status(signed) == 200, "\(signed)")
            let shortLived = try await Self.signedMaster(base, id, token: owner, expiresIn: 1)
            #expect(
                await ChildProcess.suspendUntil(seconds: 10) { await Self.status(shortLived) == 403 }, "\(shortLived)")
            #expect(await Self.status(signed) == 200, "the longer-lived URL still plays")
            return (id, plain)
        }

        // Deleted, and the server dies between the catalog's commit and the files: gone from the feed at once.
        let second = try Self.serve(directory, port: port, fault: "delete-after-commit")
        #expect(await listens(second), "\(second.stderr)")
        #expect(await Self.status("\(base)/v1/videos/\(id)", method: "DELETE", token: owner) == nil)
        #expect(try await second.exit(within: .seconds(30)) == 128 + SIGKILL)
        let store = SQLiteCatalogEngine(database: try SQLiteCatalogDatabase(path: directory.file("catalog.sqlite")))
        #expect(try await store.item(id: id) == nil)
        #expect(receiver.events("video.deleted", id: id).isEmpty, "announced only by the next server")

        // The receiver now takes a delivery and never answers it; the server is killed while it waits.
        receiver.process.signal(SIGKILL)
        _ = try await receiver.process.exit(within: .seconds(10))
        receiver = try WebhookReceiver(directory: directory.file("hooks"), port: hookPort, secret: secret, hang: 1)
        #expect(await receiver.listening(), "\(receiver.process.stderr)")
        let third = try Self.serve(directory, port: port, webhookTimeout: 8)
        #expect(await listens(third), "\(third.stderr)")
        let posted = await ChildProcess.suspendUntil(seconds: 60) {
            receiver.attempts.contains { $0["type"] as? String == "video.deleted" && ($0["verified"] as? Bool) == true }
        }
        #expect(posted, "the deletion's webhook was never posted: \(third.stderr.suffix(3000))")
        third.signal(SIGKILL)
        #expect(try await third.exit(within: .seconds(30)) == 128 + SIGKILL)
        #expect(receiver.events("video.deleted", id: id).isEmpty, "the hung delivery was not counted")

        // The next server finishes the files and, once the dead one's lease ends, delivers the event again.
        let fourth = try Self.serve(directory, port: port)
        try await withProcesses([fourth]) {
            #expect(await listens(fourth), "\(fourth.stderr)")
            let delivered = await ChildProcess.suspendUntil(seconds: 90) {
                !receiver.events("video.deleted", id: id).isEmpty
            }
            #expect(delivered, "video.deleted never arrived: \(receiver.attempts) \(fourth.stderr.suffix(3000))")
            let gone = await ChildProcess.suspendUntil(seconds: 60) {
                DeleteCommandTests.files(of: id, in: directory).isEmpty
            }
            #expect(gone, "\(DeleteCommandTests.files(of: id, in: directory))")
            #expect(await Self.status(plain) == 404)
            #expect(await Self.status("\(base)/v1/feed").map { $0 == 200 } == true)
            #expect(await Self.status("\(base)/v1/videos/\(id)", method: "DELETE", token: admin) == 204)
            #expect(await Self.status("\(base)/v1/videos/\(id)", method: "DELETE", token: owner) == 404)
        }

        // Each event once after de-duplication, though the deletion's was posted twice; every attempt signed.
        let deletedAttempts = receiver.attempts.filter {
            ($0["event"] as? String) == (receiver.events("video.deleted", id: id).first?["id"] as? String)
        }
        #expect(deletedAttempts.count >= 2, "\(receiver.attempts)")
        let ids = receiver.events.compactMap { $0["id"] as? String }
        #expect(Set(ids).count == ids.count)
        #expect(receiver.attempts.allSatisfy { $0["verified"] as? Bool == true }, "\(receiver.attempts)")
        let types = receiver.events.compactMap { $0["type"] as? String }
        #expect(types.last == "video.deleted" && types.contains("video.published"), "\(types)")
        #expect(!receiver.events.contains { "\($0)".contains("first post") }, "a caption is never in a webhook")
        let list = try await ReelProcess.run([
            "webhook", "list", "--json", "--database", directory.file("catalog.sqlite"),
        ])
        let rows = try #require(try JSONSerialization.jsonObject(with: Data(list.stdout.utf8)) as? [[String: Any]])
        #expect(rows.first?["pending"] as? Int == 0 && rows.first?["delivered"] as? Int == ids.count, "\(list.stdout)")
        #expect(!list.stdout.contains(secret), "the secret is shown only once")
        // Every body as the OpenAPI description's WebhookEvent says, checked by jsonschema.
        let contract = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        let checked = try await ChildProcess.run([
            "/usr/bin/env", "python3", contract.appendingPathComponent("Contract/check_webhook_events.py").path,
            contract.deletingLastPathComponent().appendingPathComponent("Sources/FeedServer/OpenAPI/openapi.yaml").path,
            receiver.eventsFile,
        ])
        #expect(checked.status == 0, "\(checked.stdout) \(checked.stderr)")
        receiver.process.signal(SIGKILL)
    }
}
