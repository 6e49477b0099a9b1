import Foundation
import MediaFixtures
import TestServers
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// Issue 12's hosts: `reel worker` on three network namespaces, one PostgreSQL catalog on the root namespace's bridge,
/// one shared library. The suite's processes do the work; the tests only look (psql, curl, files), and wait by suspending,
/// not blocking, so the other tests' servers in this process keep their threads.
@Suite(.serialized, .timeLimit(.minutes(15))) struct WorkersOnManyHostsTests {
    @Test func thirtyUploadsOnThreeHostsArePublishedExactlyOnce() async throws {
        try await MultiHostRig.with { rig in
            // Leases of 15 s, not the rig's 3: the multi-host suites now run beside the encoding tests (two lanes), and
            // a clean-clone run found one job at epoch 2 with one attempt, which a heartbeat more than 3 s late
            // explains (another host then takes the job over, rightly; not confirmed: the logs were not printed). This
            // test is about sharing the work without a takeover; the takeovers have tests of their own.
            let workers = try (0..<3).map { try rig.worker(on: $0, leaseSeconds: 15) }
            for n in 0..<20 {
                let image =
                    n % 2 == 0
                    ? try SyntheticImage.png(width: 200 + n, height: 150, alpha: false)
                    : try SyntheticImage.jpeg(width: 200 + n, height: 150)
                try rig.drop("photo\(n).\(n % 2 == 0 ? "png" : "jpg")", image)
            }
            for n in 0..<10 {
                let path = rig.directory.file(".clip\(n).mp4")
                try SyntheticVideo(width: 320 + 16 * n, height: 180, seconds: 1.5).write(to: path)
                try rig.drop("clip\(n).mp4", Array(try Data(contentsOf: URL(fileURLWithPath: path))))
            }
            let done = try await ChildProcess.suspendUntil(seconds: 600) {
                try await rig.jobs().filter { $0.state == "published" }.count == 30 || workers.contains { $0.hasExited }
            }
            let jobs = try await rig.jobs()
            #expect(done && jobs.count == 30, "\(jobs) \(workers.map { $0.stderr.suffix(1500) })")
            // The workers' logs too: a clean-clone run once found one job published at epoch 2 with one attempt, and
            // the rows alone could not say which claim was refunded or taken over.
            let claimedOnce = { (job: MultiHostRig.Job) in
                job.state == "published" && job.epoch == 1 && job.attempts == 1 && job.owner.isEmpty
            }
            #expect(
                jobs.allSatisfy(claimedOnce),
                """
                \(jobs.filter { !claimedOnce($0) })
                \(workers.map { worker in
                    worker.stderr.split(separator: "\n").filter { line in
                        jobs.filter { !claimedOnce($0) }.contains { line.contains($0.id) }
                    }.joined(separator: "\n")
                })
                """)
            #expect(Set(jobs.map(\.mediaID)).count == 30, "every upload is its own media")
            #expect(
                try await rig.sql("SELECT (SELECT count(*) FROM videos) || ' ' || (SELECT count(*) FROM images)") == [
                    "10 20"
                ])
            // Each video's ladder, and its provisional rendition (issue 64) until the sweep's grace period is over.
            let folders = MultiHostRig.entries(rig.library + "/videos")
            #expect(folders.filter { !$0.hasSuffix(".playable") }.count == 10, "\(folders)")
            #expect(folders.filter { $0.hasSuffix(".playable") }.count <= 10, "\(folders)")
            #expect(MultiHostRig.entries(rig.library + "/images").count == 20)
            #expect(MultiHostRig.entries(rig.library + "/originals").count == 30)
            #expect(MultiHostRig.entries(rig.library + "/.incoming").isEmpty && MultiHostRig.entries(rig.inbox).isEmpty)
            // Each job was reported by exactly one worker, and the work was shared.
            let reports = workers.flatMap { MultiHostRig.reports(of: $0) }
            #expect(reports.count == 30 && Set(reports.map(\.job)).count == 30, "\(reports)")
            #expect(
                workers.filter { !MultiHostRig.reports(of: $0).isEmpty }.count >= 2,
                "\(workers.map { MultiHostRig.reports(of: $0).count })")
        }
    }

    @Test func aWorkerKilledMidTranscodeIsFinishedByAnotherHostAfterItsLease() async throws {
        try await MultiHostRig.with { rig in
            let first = try rig.worker(on: 0)
            try await rig.dropSlowVideo("long.mp4")
            let processing = try await ChildProcess.suspendUntil(seconds: 120) {
                try await rig.jobs().first?.state == "processing"
            }
            let jobsNow = (try? await rig.jobs()) ?? []
            #expect(processing, "\(jobsNow) \(first.stderr.suffix(2000))")
            let others = try (1..<3).map { try rig.worker(on: $0) }
            await first.stop(SIGKILL)
            let published = try await ChildProcess.suspendUntil(seconds: 300) {
                try await rig.jobs().first?.state == "published"
            }
            let job = try #require(try await rig.jobs().first)
            #expect(published && job.state == "published", "\(job) \(others.map { $0.stderr.suffix(2000) })")
            // Taken over once (epoch 2), the dead worker's attempt refunded, and finished by a live host.
            #expect(job.epoch == 2 && job.attempts == 1, "\(job)")
            #expect(await MultiHostRig.reports(of: others, reaching: 1).map(\.job) == [job.id])
            #expect(others.contains { $0.stderr.contains("taking it back") || $0.stderr.contains("recovered a job") })
            let check = try await ChildProcess.run([
                MultiHostRig.reel, "hls-check", rig.library + "/videos/" + job.id + ".e\(job.epoch)",
            ])
            #expect(check.status == 0, "\(check.stdout) \(check.stderr)")
            let swept = await ChildProcess.suspendUntil(seconds: 10) {
                MultiHostRig.entries(rig.library + "/.staging").isEmpty
            }
            #expect(swept, "the dead attempt's staging is swept: \(MultiHostRig.entries(rig.library + "/.staging"))")
        }
    }

    @Test func aHostCutOffMidJobNeverPublishesAfterAnotherTookItOver() async throws {
        try await MultiHostRig.with { rig in
            // What each step saw and when (seconds since the start), for the failure messages: this test failed in
            // loaded full runs with the cut host's job published at epoch 1, and its steps' timing is the evidence.
            let start = ContinuousClock.now
            var timeline: [String] = []
            func note(_ step: String) {
                let elapsed = ContinuousClock.now - start
                timeline.append(
                    String(
                        format: "%lld.%02lld s ", elapsed.components.seconds,
                        elapsed.components.attoseconds / 10_000_000_000_000_000) + step)
            }
            let late = try rig.worker(on: 0)
            // 20 s of 720p: the transcode must outlast the steps up to the cut on a loaded machine (a 6 s clip was
            // published before the cut took effect, and the test then had nothing to take over).
            try await rig.dropSlowVideo("long.mp4", seconds: 20)
            let processing = try await ChildProcess.suspendUntil(seconds: 120) {
                try await rig.jobs().first?.state == "processing"
            }
            #expect(processing, "\(late.stderr.suffix(2000))")
            // The taker's lease is long enough that a heavily loaded machine (a second build beside the tests) never lets it
            // lapse: with 3 s, a late heartbeat let the cut host take the job back (epoch 3) and publish it, rightly.
            note("processing")
            let taker = try rig.worker(on: 1, leaseSeconds: 15)
            try await rig.hosts.cutLink(rig.hosts.hosts[0])
            note("cut \(rig.hosts.hosts[0])")
            let atCut = try await rig.jobs()
            note("at the cut: \(atCut)")
            try #require(
                atCut.first?.state == "processing" && atCut.first?.epoch == 1,
                "the job must still be processing on the cut host when its link goes: \(timeline)")
            // Host 1 takes the job once host 0's lease has expired; then host 0 comes back.
            // 300 s like the other waits: the cut host may hold the row in an open transaction until PostgreSQL gives up
            // on its connection (TCP retransmission back-off); under a loaded run 120 s was not always enough.
            // Every change the polls saw goes in the timeline: in the failures the test saw epoch 2 although the job
            // was published at epoch 1 and no worker logged a takeover.
            var seen: [MultiHostRig.Job] = atCut
            let takenOver = try await ChildProcess.suspendUntil(seconds: 300) {
                let now = try await rig.jobs()
                if now != seen { note("jobs now: \(now)") }
                seen = now
                return seen.first?.epoch == 2
            }
            note("taken over: \(takenOver) \(seen)")
            #expect(takenOver, "\(timeline) \(taker.stderr.suffix(1500))")
            try await rig.hosts.restoreLink(rig.hosts.hosts[0])
            note("restored")
            let published = try await ChildProcess.suspendUntil(seconds: 300) {
                try await rig.jobs().first?.state == "published"
            }
            let job = try #require(try await rig.jobs().first)
            note("published: \(published) \(job)")
            #expect(
                published && job.epoch == 2, "\(timeline)\nlate: \(Self.events(late))\ntaker: \(Self.events(taker))")
            // The new owner published; the late worker learned it had lost the job and published nothing.
            #expect(await MultiHostRig.reports(of: [taker], reaching: 1).map(\.job) == [job.id])
            // It learns at its next heartbeat that reaches the server: its connection's TCP retransmissions back off while
            // the link is down, so the first one after the link is back can come a minute or more later.
            let lateLearned = await ChildProcess.suspendUntil(seconds: 300) {
                late.stderr.contains("lost a job's lease")
            }
            #expect(lateLearned, "\(late.stderr.suffix(3000))")
            #expect(MultiHostRig.reports(of: late).isEmpty, "\(late.stdout)")
            #expect(try await rig.sql("SELECT count(*) FROM videos") == ["1"])
            let check = try await ChildProcess.run([
                MultiHostRig.reel, "hls-check", rig.library + "/videos/" + job.id + ".e\(job.epoch)",
            ])
            #expect(check.status == 0, "the published video is complete: \(check.stdout) \(check.stderr)")
            // The late worker's claim (epoch 1) published no ladder: only the taker's claim has one. A provisional
            // rendition (issue 64) stays until the sweep's grace period is over.
            let folders = MultiHostRig.entries(rig.library + "/videos")
            #expect(folders.filter { !$0.hasSuffix(".playable") } == [job.id + ".e2"], "\(folders)")
        }
    }

    /// A worker's log lines without the migrations, each shortened: the time and the message.
    static func events(_ worker: ChildProcess) -> [String] {
        worker.stderr.split(separator: "\n").compactMap { line in
            guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                let message = object["message"] as? String, message != "catalog migrated"
            else { return nil }
            return "\((object["time"] as? String)?.suffix(13) ?? "") \(message)"
        }
    }

    @Test func postgresRestartsDuringARunWithoutLosingAJobOrHangingTheFeed() async throws {
        try await MultiHostRig.with { rig in
            let workers = try (0..<2).map { try rig.worker(on: $0) }
            let server = try await rig.serve(on: 2)
            for n in 0..<4 {
                try rig.drop("before\(n).png", try SyntheticImage.png(width: 100 + n, height: 90, alpha: false))
            }
            let publishedBefore = try await ChildProcess.suspendUntil(seconds: 120) {
                try await rig.jobs().filter { $0.state == "published" }.count == 4
            }
            #expect(publishedBefore, "four images published before the catalog stopped")
            #expect(try await MultiHostRig.get(server.base + "/v1/feed").status == 200)

            await rig.server.stop()
            // Uploads keep arriving while the catalog is down; the feed says so at once, as JSON, never hangs.
            for n in 0..<4 {
                try rig.drop("during\(n).png", try SyntheticImage.png(width: 200 + n, height: 90, alpha: false))
            }
            let down = try await MultiHostRig.get(server.base + "/v1/feed?limit=5&cursor=djE6MTcwMDAwMDAwMDAwMDp4")
            #expect(down.status == 503 && down.body.contains("\"database_unavailable\""), "\(down)")
            #expect(try await MultiHostRig.get(server.base + "/healthz").status == 503)
            try await rig.server.start()

            for n in 0..<4 {
                try rig.drop("after\(n).png", try SyntheticImage.png(width: 300 + n, height: 90, alpha: false))
            }
            let all = try await ChildProcess.suspendUntil(seconds: 180) {
                try await rig.jobs().filter { $0.state == "published" }.count == 12
            }
            let jobsNow = (try? await rig.jobs()) ?? []
            #expect(all, "\(jobsNow) \(workers.map { $0.stderr.suffix(1500) })")
            #expect(workers.allSatisfy { !$0.hasExited }, "the workers were not restarted")
            #expect(
                MultiHostRig.entries(rig.inbox).isEmpty && MultiHostRig.entries(rig.library + "/images").count == 12)
            let back = try await ChildProcess.suspendUntil(seconds: 60) {
                try await MultiHostRig.get(server.base + "/v1/feed").status == 200
            }
            #expect(
                back && !server.process.hasExited,
                "the feed server reconnected on its own: \(server.process.stderr.suffix(2000))")
        }
    }

    @Test func feedServersOnTwoHostsServeTheSamePagesAndEachOthersCursors() async throws {
        try await MultiHostRig.with { rig in
            let seeded = try await ChildProcess.run([
                MultiHostRig.reel, "db", "seed", "--database", rig.url, "--count", "120",
            ])
            #expect(seeded.status == 0, "\(seeded.stderr)")
            let first = try await rig.serve(on: 0)
            let second = try await rig.serve(on: 1)
            var cursor: String?
            var seen: [String] = []
            for page in 0..<6 {
                let path = "/v1/feed?limit=25" + (cursor.map { "&cursor=" + $0 } ?? "")
                let here = try await MultiHostRig.get((page % 2 == 0 ? first : second).base + path)
                let there = try await MultiHostRig.get((page % 2 == 0 ? second : first).base + path)
                #expect(here.status == 200 && here == there, "page \(page)")
                let object = try #require(
                    try JSONSerialization.jsonObject(with: Data(here.body.utf8)) as? [String: Any])
                seen += ((object["items"] as? [[String: Any]]) ?? []).compactMap { $0["id"] as? String }
                cursor = object["next_cursor"] as? String
                if cursor == nil { break }
            }
            #expect(seen == (0..<120).reversed().map { String(format: "v%09d", $0) })
        }
    }
}
