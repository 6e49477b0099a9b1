import Foundation
import MediaFixtures
import TestServers
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// Issue 65 on many hosts (PostgreSQL and SeaweedFS, no shared directory): a post uploaded with a caption through one
/// feed server and published by a worker on another host is deleted through a third server. It leaves both servers'
/// feeds at once and the store loses its files; a server killed between the catalog's commit and the files leaves
/// them to the next server that runs.
@Suite(.serialized, .timeLimit(.minutes(15))) struct DeletionOnManyHostsTests {
    static func delete(_ base: String, _ id: String, token: String) async throws -> (status: Int, body: String) {
        let result = try await ChildProcess.run([
            "/usr/bin/curl", "-s", "--max-time", "30", "-X", "DELETE", "-H", "Authorization: Bearer \(token)",
            "-w", "\n%{http_code}", base + "/v1/videos/" + id,
        ])
        let lines = result.stdout.split(separator: "\n", omittingEmptySubsequences: false)
        return (Int(lines.last ?? "") ?? 0, lines.dropLast().joined(separator: "\n"))
    }

    @Test func aPostDeletedThroughOneServerLeavesEveryFeedAndTheStore() async throws {
        try await MultiHostRig.with(hosts: 4) { rig in
            try await rig.startObjectStore()
            let created = try await ChildProcess.run([
                MultiHostRig.reel, "token", "create", "--database", rig.url, "--name", "phone",
            ])
            #expect(created.status == 0, "\(created.stderr)")
            let token = created.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
            let servers = [try await rig.serve(on: 2, fromStore: true), try await rig.serve(on: 3, fromStore: true)]
            _ = try rig.objectWorker(on: 0)
            let source = try await SharedClip.uploadable()
            let upload = try await ChildProcess.run(
                [
                    MultiHostRig.reel, "upload", source, "--server", servers[0].base, "--token", token,
                    "--caption", "posted on one host, deleted on another", "--no-wait",
                ],
                environment: ["XDG_CACHE_HOME": rig.directory.file("cache"), "HOME": rig.directory.path],
                within: .seconds(300))
            #expect(upload.status == 0, "\(upload.stdout) \(upload.stderr)")
            let published = try await ChildProcess.suspendUntil(seconds: 300) {
                try await rig.jobs().first?.state == "published"
            }
            let job = try #require(try await rig.jobs().first)
            #expect(published, "\(job)")
            let id = job.id
            for server in servers {
                let feed = try await MultiHostRig.get(server.base + "/v1/feed")
                #expect(feed.body.contains("posted on one host, deleted on another"), "\(server.base): \(feed)")
            }
            let original = await ChildProcess.suspendUntil(seconds: 30) {
                (try? await rig.objectKeys().contains("originals/\(id)")) == true
            }
            #expect(original)

            let deleted = try await Self.delete(servers[1].base, id, token: token)
            #expect(deleted.status == 200, "\(deleted)")
            #expect(deleted.body.contains(#""original":true"#) && deleted.body.contains(#""job":true"#), "\(deleted)")
            // The other server's feed follows the catalog's generation (NOTIFY): gone there too, at once.
            for server in servers {
                let gone = await ChildProcess.suspendUntil(seconds: 5) {
                    let feed = try? await MultiHostRig.get(server.base + "/v1/feed")
                    return feed?.status == 200 && feed?.body.contains(id) == false
                }
                #expect(gone, "\(server.base) still lists \(id)")
                let master = try await MultiHostRig.get(server.base + "/media/videos/\(id).e1/master.m3u8")
                #expect(master.status == 404, "\(server.base): \(master.status)")
            }
            let keys = try await rig.objectKeys()
            #expect(!keys.contains { $0.contains(id) }, "\(keys.filter { $0.contains(id) })")
            #expect(try await Self.delete(servers[0].base, id, token: token).status == 404)
            #expect(try await rig.sql("SELECT reason FROM tombstones WHERE id = '\(id)'") == ["creator"])
        }
    }

    @Test func aServerKilledMidDeletionLeavesTheFilesToTheNextServer() async throws {
        try await MultiHostRig.with(hosts: 3) { rig in
            try await rig.startObjectStore()
            let created = try await ChildProcess.run([
                MultiHostRig.reel, "token", "create", "--database", rig.url, "--name", "ops", "--admin",
            ])
            #expect(created.status == 0, "\(created.stderr)")
            let admin = created.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
            _ = try rig.objectWorker(on: 0)
            try rig.drop(
                "photo.png", try SyntheticImage.png(width: 120, height: 90, alpha: false), into: rig.inbox(of: 0))
            let path = rig.directory.file(".clip.mp4")
            try SyntheticVideo(width: 320, height: 180, seconds: 1.5).write(to: path)
            try rig.drop("clip.mp4", Array(try Data(contentsOf: URL(fileURLWithPath: path))), into: rig.inbox(of: 0))
            let published = try await ChildProcess.suspendUntil(seconds: 300) {
                try await rig.jobs().filter { $0.state == "published" }.count == 2
            }
            let jobs = try await rig.jobs()
            #expect(published, "\(jobs)")
            let keysBefore = try await rig.objectKeys()
            let video = try #require(
                try await rig.jobs().first { keysBefore.contains("videos/\($0.id).e1/master.m3u8") })
            let dying = try await rig.serve(on: 1, fromStore: true, fault: "delete-after-commit")
            #expect(try await Self.delete(dying.base, video.id, token: admin).status == 0, "it answered instead")
            #expect(try await dying.process.exit(within: .seconds(30)) == 128 + SIGKILL)
            #expect(try await rig.sql("SELECT count(*) FROM videos WHERE id = '\(video.id)'") == ["0"])
            #expect(try await rig.objectKeys().contains("videos/\(video.id).e1/master.m3u8"), "already gone")

            let next = try await rig.serve(on: 2, fromStore: true, logLevel: "info")
            let gone = await ChildProcess.suspendUntil(seconds: 60) {
                (try? await rig.objectKeys().contains { $0.contains(video.id) }) == false
            }
            let left = try await rig.objectKeys().filter { $0.contains(video.id) }
            #expect(gone, "\(left)")
            #expect(
                next.process.stderr.contains("interrupted deletions finished"), "\(next.process.stderr.suffix(2000))")
            let image = try #require(try await rig.jobs().first { $0.id != video.id })
            #expect(try await rig.objectKeys().contains("images/\(image.mediaID).e1.webp"), "the other post stays")
        }
    }
}
