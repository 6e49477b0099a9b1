import Foundation
import MediaFixtures
import TestServers
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// Issue 65's judged path on many hosts (PostgreSQL and SeaweedFS, no shared directory): a post uploaded with a caption
/// through one feed server and published by a worker on another host; its webhook heard and verified by a receiver
/// Reel did not write; made private (old URLs 403 on every server, signed ones 200, expired ones 403); deleted through
/// a server killed between the catalog's commit and the files; its deletion's webhook taken by a server that is
/// killed while the receiver holds the request, and delivered by the host that survives. Every event arrives once
/// after the receiver's de-duplication.
@Suite(.serialized, .timeLimit(.minutes(15))) struct AppLifecycleOnManyHostsTests {
    static let webhookOptions = [
        "--webhook-backoff-seconds", "0.2", "--webhook-backoff-max-seconds", "1", "--webhook-timeout-seconds", "8",
    ]

    static func call(
        _ method: String, _ url: String, token: String, body: String? = nil
    ) async throws -> (
        status: Int, body: String
    ) {
        let result = try await ChildProcess.run(
            ["/usr/bin/curl", "-s", "--max-time", "30", "-X", method, "-H", "Authorization: Bearer \(token)"]
                + (body.map { ["-H", "Content-Type: application/json", "-d", $0] } ?? []) + [
                    "-w", "\n%{http_code}", url,
                ])
        let lines = result.stdout.split(separator: "\n", omittingEmptySubsequences: false)
        return (Int(lines.last ?? "") ?? 0, lines.dropLast().joined(separator: "\n"))
    }

    static func masterURL(_ base: String, _ id: String, token: String, expiresIn: Int) async throws -> String {
        let answer = try await call("GET", "\(base)/v1/videos/\(id)?expires_in=\(expiresIn)", token: token)
        let object = try JSONSerialization.jsonObject(with: Data(answer.body.utf8)) as? [String: Any]
        return try #require(object?["master_url"] as? String, "\(answer)")
    }

    @Test func anAppsPostFromUploadToDeletionOnManyHosts() async throws {
        try await MultiHostRig.with(hosts: 4) { rig in
            try await rig.startObjectStore()
            var tokens: [String] = []
            for (name, admin) in [("phone", false), ("ops", true)] {
                let created = try await ChildProcess.run(
                    [MultiHostRig.reel, "token", "create", "--database", rig.url, "--name", name]
                        + (admin ? ["--admin"] : []))
                #expect(created.status == 0, "\(created.stderr)")
                tokens.append(created.stdout.trimmingCharacters(in: .whitespacesAndNewlines))
            }
            let (owner, admin) = (tokens[0], tokens[1])
            let hookHost = rig.hosts.rootAddress
            let hookPort = try FreePort.pick(host: hookHost)
            let refused = try await ChildProcess.run([
                MultiHostRig.reel, "webhook", "add", "http://\(hookHost):\(hookPort)/reel", "--events", "all",
                "--database", rig.url,
            ])
            #expect(refused.status != 0 && refused.stderr.contains("not a public address"), "\(refused.stderr)")
            let added = try await ChildProcess.run([
                MultiHostRig.reel, "webhook", "add", "http://\(hookHost):\(hookPort)/reel", "--events", "all",
                "--allow-private-addresses", "--database", rig.url,
            ])
            #expect(added.status == 0, "\(added.stderr)")
            let secret = added.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
            let hooks = rig.directory.file("hooks")
            try FileManager.default.createDirectory(atPath: hooks, withIntermediateDirectories: true)
            var receiver = try WebhookReceiver(directory: hooks, port: hookPort, secret: secret, host: hookHost)
            #expect(await receiver.listening(), "\(receiver.process.stderr)")

            let keys = rig.directory.file("playback.key")
            try Data((String(repeating: "cd", count: 32) + "\n").utf8).write(to: URL(fileURLWithPath: keys))
            chmod(keys, 0o600)
            let options = Self.webhookOptions + ["--playback-key-file", keys]
            let servers = [
                try await rig.serve(on: 2, fromStore: true, options: options),
                try await rig.serve(on: 3, fromStore: true, options: options),
            ]
            _ = try rig.objectWorker(on: 0)
            let source = try await SharedClip.uploadable()
            let upload = try await ChildProcess.run(
                [
                    MultiHostRig.reel, "upload", source, "--server", servers[0].base, "--token", owner,
                    "--caption", "a post that goes everywhere", "--no-wait",
                ],
                environment: ["XDG_CACHE_HOME": rig.directory.file("cache"), "HOME": rig.directory.path],
                within: .seconds(300))
            #expect(upload.status == 0, "\(upload.stdout) \(upload.stderr)")
            let published = try await ChildProcess.suspendUntil(seconds: 300) {
                try await rig.jobs().first?.state == "published"
            }
            let id = try #require(try await rig.jobs().first?.id)
            #expect(published)
            let heard = await ChildProcess.suspendUntil(seconds: 30) {
                !receiver.events("video.published", id: id).isEmpty
            }
            #expect(heard, "no video.published: \(receiver.attempts)")

            // Private through one server: the old URL is refused by both, a signed one plays, an expired one not.
            let plain = try await Self.masterURL(servers[0].base, id, token: owner, expiresIn: 60)
            #expect(try await MultiHostRig.get(servers[1].base + plain).status == 200)
            let made = try await Self.call(
                "PATCH", servers[0].base + "/v1/videos/" + id, token: owner, body: #"{"visibility":"private"}"#)
            #expect(made.status == 200, "\(made)")
            let signed = try await Self.masterURL(servers[1].base, id, token: owner, expiresIn: 600)
            let shortLived = try await Self.masterURL(servers[0].base, id, token: owner, expiresIn: 1)
            for server in servers {
                #expect(try await MultiHostRig.get(server.base + plain).status == 403, "\(server.base)")
                #expect(try await MultiHostRig.get(server.base + signed).status == 200, "\(server.base)")
                let expired = await ChildProcess.suspendUntil(seconds: 10) {
                    (try? await MultiHostRig.get(server.base + shortLived).status) == 403
                }
                #expect(expired, "\(server.base) still plays an expired URL")
            }

            // The receiver will hold the next delivery without answering.
            receiver.process.signal(SIGKILL)
            _ = try await receiver.process.exit(within: .seconds(10))
            receiver = try WebhookReceiver(directory: hooks, port: hookPort, secret: secret, hang: 1, host: hookHost)
            #expect(await receiver.listening(), "\(receiver.process.stderr)")

            // Deleted through a server that dies between the catalog's commit and the files.
            let dying = try await rig.serve(on: 1, fromStore: true, fault: "delete-after-commit", options: options)
            #expect(try await Self.call("DELETE", dying.base + "/v1/videos/" + id, token: owner).status == 0)
            #expect(try await dying.process.exit(within: .seconds(30)) == 128 + SIGKILL)
            for server in servers {
                let gone = await ChildProcess.suspendUntil(seconds: 5) {
                    let feed = try? await MultiHostRig.get(server.base + "/v1/feed")
                    return feed?.status == 200 && feed?.body.contains(id) == false
                }
                #expect(gone, "\(server.base) still lists \(id)")
            }

            // One of the two servers takes the deletion's webhook; it dies while the receiver holds the request.
            let posted = await ChildProcess.suspendUntil(seconds: 60) {
                receiver.attempts.contains { $0["type"] as? String == "video.deleted" }
            }
            #expect(posted, "the deletion's webhook was never posted")
            let holders = try await rig.sql(
                "SELECT lease_owner FROM webhook_deliveries WHERE type = 'video.deleted' AND lease_owner IS NOT NULL")
            let holder = try #require(
                servers.firstIndex { server in holders.contains { $0.contains(":\(server.process.pid):") } },
                "no server holds the delivery: \(holders)")
            servers[holder].process.signal(SIGKILL)
            #expect(try await servers[holder].process.exit(within: .seconds(30)) == 128 + SIGKILL)
            let survivor = servers[1 - holder]

            // The survivor finishes the files and, once the dead host's lease ends, delivers the event again.
            let delivered = await ChildProcess.suspendUntil(seconds: 90) {
                !receiver.events("video.deleted", id: id).isEmpty
            }
            #expect(delivered, "video.deleted never arrived: \(receiver.attempts)")
            let emptied = await ChildProcess.suspendUntil(seconds: 90) {
                (try? await rig.objectKeys().contains { $0.contains(id) }) == false
            }
            let left = try await rig.objectKeys().filter { $0.contains(id) }
            #expect(emptied, "\(left)")
            // Gone: the signed URL names a post the gate no longer knows (403), the plain one nothing (404).
            #expect(try await MultiHostRig.get(survivor.base + signed).status == 403)
            #expect(try await MultiHostRig.get(survivor.base + plain).status == 404)
            #expect(try await Self.call("DELETE", survivor.base + "/v1/videos/" + id, token: admin).status == 204)
            #expect(try await Self.call("DELETE", survivor.base + "/v1/videos/" + id, token: owner).status == 404)

            let deletedID = receiver.events("video.deleted", id: id).first?["id"] as? String
            #expect(receiver.attempts.filter { $0["event"] as? String == deletedID }.count >= 2, "\(receiver.attempts)")
            let ids = receiver.events.compactMap { $0["id"] as? String }
            #expect(Set(ids).count == ids.count && ids.count >= 2)
            #expect(receiver.attempts.allSatisfy { $0["verified"] as? Bool == true }, "\(receiver.attempts)")
            #expect(try await rig.sql("SELECT count(*) FROM webhook_deliveries WHERE delivered_at IS NULL") == ["0"])
            receiver.process.signal(SIGKILL)
        }
    }
}
