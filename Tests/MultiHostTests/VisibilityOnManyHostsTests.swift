import Foundation
import MediaFixtures
import TestServers
import Testing

/// Issue 65's private posts on many hosts (PostgreSQL and SeaweedFS): two feed servers with one key file. A URL one
/// signs plays through the other; a revocation made through one stops the old URL on the other at once (the
/// catalog's generation, announced by NOTIFY), and a new URL plays on both.
@Suite(.serialized, .timeLimit(.minutes(15))) struct VisibilityOnManyHostsTests {
    static func patch(_ base: String, _ id: String, _ body: String, token: String) async throws -> String {
        let result = try await ChildProcess.run([
            "/usr/bin/curl", "-s", "--max-time", "30", "-X", "PATCH", "-H", "Authorization: Bearer \(token)",
            "-H", "Content-Type: application/json", "-d", body, base + "/v1/videos/" + id,
        ])
        let object = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
        return try #require(object?["master_url"] as? String, "\(result.stdout) \(result.stderr)")
    }

    @Test func aRevocationThroughOneServerStopsTheOldURLOnTheOtherAtOnce() async throws {
        try await MultiHostRig.with(hosts: 3) { rig in
            try await rig.startObjectStore()
            let keys = rig.directory.file("playback.key")
            try Data((String(repeating: "ab", count: 32) + "\n").utf8).write(to: URL(fileURLWithPath: keys))
            chmod(keys, 0o600)
            let created = try await ChildProcess.run([
                MultiHostRig.reel, "token", "create", "--database", rig.url, "--name", "ops", "--admin",
            ])
            #expect(created.status == 0, "\(created.stderr)")
            let admin = created.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
            _ = try rig.objectWorker(on: 0)
            let path = rig.directory.file(".clip.mp4")
            try SyntheticVideo(width: 320, height: 180, seconds: 1.5).write(to: path)
            try rig.drop("clip.mp4", Array(try Data(contentsOf: URL(fileURLWithPath: path))), into: rig.inbox(of: 0))
            let published = try await ChildProcess.suspendUntil(seconds: 300) {
                try await rig.jobs().first?.state == "published"
            }
            let id = try #require(try await rig.jobs().first?.id)
            #expect(published)
            let servers = [
                try await rig.serve(on: 1, fromStore: true, options: ["--playback-key-file", keys]),
                try await rig.serve(on: 2, fromStore: true, options: ["--playback-key-file", keys]),
            ]
            let plain = "/media/videos/\(id).e1/master.m3u8"
            let signed = try await Self.patch(servers[0].base, id, #"{"visibility":"private"}"#, token: admin)
            #expect(signed.hasPrefix("/media/s/"))
            for server in servers {
                #expect(try await MultiHostRig.get(server.base + plain).status == 403, "\(server.base)")
                #expect(try await MultiHostRig.get(server.base + signed).status == 200, "\(server.base)")
                #expect(!(try await MultiHostRig.get(server.base + "/v1/feed").body.contains(id)))
            }
            let renewed = try await Self.patch(servers[1].base, id, #"{"revoke_links":true}"#, token: admin)
            let stopped = await ChildProcess.suspendUntil(seconds: 2) {
                (try? await MultiHostRig.get(servers[0].base + signed).status) == 403
            }
            #expect(stopped, "the revoked URL still plays on the other server")
            for server in servers {
                #expect(try await MultiHostRig.get(server.base + renewed).status == 200, "\(server.base)")
                let check = try await ChildProcess.run([MultiHostRig.reel, "hls-check", server.base + renewed])
                #expect(check.status == 0, "a signed ladder plays whole: \(check.stdout) \(check.stderr)")
            }
        }
    }
}
