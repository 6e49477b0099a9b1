import Catalog
import Foundation
import MediaFixtures
import SQLiteCatalog
import Testing

/// `reel serve --inbox` with its library on a really full file system (a small tmpfs, mounted as root, as CI runs):
/// the server and the worker stay up, `/healthz` says `disk_full`, nothing is failed, refused or lost, and the
/// uploads are published by themselves once space is freed.
///
/// HTTP goes through curl and every wait suspends: a test that blocks a thread of Swift's cooperative pool (two here)
/// stalls every other test. When CLI tests blocked on their subprocesses, this test's first answer from /healthz
/// reached it 158 s after the server was listening.
@Suite(.serialized, .timeLimit(.minutes(15))) struct DiskFullTests {
    @Test(.enabled(if: getuid() == 0, "mounting a tmpfs needs root; the in-process fault tests cover ENOSPC otherwise"))
    func theWorkerPausesOnAFullDiskAndPublishesOnceSpaceReturns() async throws {
        let directory = try TemporaryDirectory()
        let mount = directory.file("small-fs")
        try FileManager.default.createDirectory(atPath: mount, withIntermediateDirectories: true)
        let mounted = try await ChildProcess.run(
            ["/bin/mount", "-t", "tmpfs", "-o", "size=32m", "tmpfs", mount], within: .seconds(60))
        try #require(mounted.status == 0, "mount: \(mounted.stderr)")
        // Unmounted after the rest whether it returned or threw (`defer` cannot await).
        let unmount = { _ = try? await ChildProcess.run(["/bin/umount", "-l", mount], within: .seconds(60)) }
        do {
            let inbox = mount + "/inbox", library = mount + "/library", database = directory.file("catalog.sqlite")
            try FileManager.default.createDirectory(atPath: inbox, withIntermediateDirectories: true)
            let clip = directory.file("clip.mp4")
            try SyntheticVideo(width: 320, height: 180, seconds: 1.5).write(to: clip)
            try Data(contentsOf: URL(fileURLWithPath: clip)).write(to: URL(fileURLWithPath: inbox + "/clip.mp4"))
            try Data(try SyntheticImage.png(width: 120, height: 80, alpha: false)).write(
                to: URL(fileURLWithPath: inbox + "/photo.png"))
            // Fill the file system to the last block.
            let fill = try await ChildProcess.run(
                ["/bin/dd", "if=/dev/zero", "of=\(mount)/filler", "bs=1M"], within: .seconds(120))
            #expect(fill.stderr.contains("No space left on device"), "dd: \(fill.stderr)")

            let server = try ChildProcess([
                ReelProcess.executable, "serve", "--database", database, "--library", library, "--inbox", inbox,
                "--port", "0", "--settle", "0.3", "--poll-interval", "0.1", "--min-free-mb", "0",
            ])
            #expect(await listens(server, seconds: 60), "reel serve never said it was listening: \(server.stderr)")
            let base = try #require(
                server.stdout.split(separator: "\n").first?.split(separator: " ").last.map(String.init))
            let store = SQLiteCatalogEngine(database: try SQLiteCatalogDatabase(path: database))

            // The jobs hit ENOSPC; the worker pauses and says so, and the server keeps answering.
            var health = (status: 0, code: "")
            var timeouts = 0
            let paused = try await Self.poll(seconds: 120, timeouts: &timeouts) {  // generous: CI machines are shared
                health = try await Self.get(base + "/healthz")
                return health.status == 503 && health.code == "disk_full"
            }
            #expect(
                paused,
                "/healthz did not say disk_full within 120 s: \(health), \(timeouts) requests timed out\n\(server.stderr.suffix(4000))"
            )
            #expect(try await Self.get(base + "/v1/feed").status == 200)
            let whileFull = try await Self.allJobs(store)
            #expect(whileFull.allSatisfy { $0.state == .queued || $0.state == .processing }, "\(whileFull)")
            #expect(whileFull.allSatisfy { $0.attempts <= 1 }, "a full disk must not use up attempts: \(whileFull)")
            #expect(((try? FileManager.default.contentsOfDirectory(atPath: library + "/failed")) ?? []).isEmpty)
            #expect(((try? FileManager.default.contentsOfDirectory(atPath: library + "/rejected")) ?? []).isEmpty)
            #expect(server.stderr.components(separatedBy: "the library's disk is full").count - 1 == 1, "logged once")

            // Space returns: both uploads are published without a restart, and health is back.
            try FileManager.default.removeItem(atPath: mount + "/filler")
            var jobs: [FeedJob] = []
            let published = try await Self.poll(seconds: 120, timeouts: &timeouts) {
                jobs = try await Self.allJobs(store)
                return jobs.count == 2 && jobs.allSatisfy { $0.state == .published }
            }
            #expect(
                published,
                "the two jobs were not published within 120 s: \(jobs), \(timeouts) requests timed out\n\(server.stderr.suffix(4000))"
            )
            #expect(try await Self.get(base + "/healthz").status == 200)
            #expect(server.stderr.contains("claiming uploads again"))
            // Originals move to originals/ just after each publish commits, so they may lag the job states.
            let originals = try await Self.poll(seconds: 30, timeouts: &timeouts) {
                ((try? FileManager.default.contentsOfDirectory(atPath: library + "/originals")) ?? []).count == 2
            }
            #expect(
                originals,
                "the two originals were not in originals/ within 30 s: \((try? FileManager.default.contentsOfDirectory(atPath: library + "/originals")) ?? [])"
            )
            #expect(try await store.page(limit: 10, after: nil).items.count == 1)
            server.signal(SIGTERM)
            #expect(try await server.exit(within: .seconds(120)) == 0, "\(server.stderr.suffix(2000))")
        } catch {
            await unmount()
            throw error
        }
        await unmount()
    }

    /// A request that got no answer within 20 s.
    struct TimedOut: Error {}

    /// GET with curl: the status and the JSON error code, if any.
    static func get(_ url: String) async throws -> (status: Int, code: String) {
        let result = try await ChildProcess.run([
            "/usr/bin/curl", "-s", "--max-time", "20", "-w", "\n%{http_code}", url,
        ])
        guard result.status != 28 else { throw TimedOut() }  // curl's "operation timed out"
        let lines = result.stdout.split(separator: "\n", omittingEmptySubsequences: false)
        let status = Int(lines.last ?? "") ?? 0
        let body =
            (try? JSONSerialization.jsonObject(with: Data(lines.dropLast().joined(separator: "\n").utf8)))
            as? [String: Any]
        return (status, ((body?["error"] as? [String: Any])?["code"] as? String) ?? "")
    }

    /// Polls `condition` every 100 ms until it holds or `seconds` pass, suspending in between. A request that times
    /// out counts as "not yet" (the server is judged by what it answers, and by the final checks), and is reported in
    /// `timeouts`.
    /// Every job, in every state.
    static func allJobs(_ store: SQLiteCatalogEngine) async throws -> [FeedJob] {
        var jobs: [FeedJob] = []
        for state in FeedJob.State.allCases { jobs += try await store.jobs(state: state) }
        return jobs
    }

    static func poll(seconds: Double, timeouts: inout Int, _ condition: () async throws -> Bool) async throws -> Bool {
        var count = 0
        let held = try await ChildProcess.suspendUntil(seconds: seconds) {
            do { return try await condition() } catch is TimedOut {
                count += 1
                return false
            }
        }
        timeouts += count
        return held
    }
}
