import Catalog
import Deadlines
import Foundation
import MediaFixtures
import MediaModel
import SQLiteCatalog
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// `reel worker` and `reel serve --inbox` as real processes, on generated media.
@Suite(.timeLimit(.minutes(15))) struct WorkerCommandTests {
    @Test func mixedUploadsBecomeAPlayableFeed() async throws {
        let harness = try WorkerHarness()
        let server = try ChildProcess([
            ReelProcess.executable, "serve", "--database", harness.database, "--library", harness.library,
            "--port", "0", "--inbox", harness.inbox, "--settle", "0.3", "--poll-interval", "0.1",
        ])
        #expect(
            await listens(server, prefix: "listening on"), "reel serve never said it was listening: \(server.stderr)")
        let base = try #require(server.stdout.split(separator: "\n").first?.split(separator: " ").last.map(String.init))
        try await harness.dropVideo("first.mp4", width: 320, height: 180)
        try await harness.dropVideo("second.mov", width: 180, height: 320)
        try harness.drop("sticker.png", try SyntheticImage.png(width: 300, height: 200, alpha: true))
        try harness.drop("photo.jpg", try SyntheticImage.jpeg(width: 640, height: 480))
        try harness.drop("notes.mp4", Array("just some text, not a video\n".utf8))
        let jobs = try await harness.waitForJobs(count: 5)
        #expect(jobs.filter { $0.state == .published }.count == 4, "\(jobs.map { ($0.state, $0.reason) })")
        // A byte-identical re-upload of the first video, once it is published.
        // The original moves to originals/ just after the publish commits, so it may lag the job's state.
        let firstOriginal =
            harness.library + "/originals/" + (jobs.first { $0.sourceName == Array("first.mp4".utf8) }?.id ?? "")
        let waited = await ChildProcess.suspendUntil(seconds: 30) {
            FileManager.default.fileExists(atPath: firstOriginal)
        }
        #expect(waited, "\(firstOriginal) never appeared within 30 s")
        let firstBytes = try Data(contentsOf: URL(fileURLWithPath: firstOriginal))
        try harness.drop("first again.mp4", Array(firstBytes))
        let all = try await harness.waitForJobs(count: 6)
        let duplicate = try #require(all.first { $0.sourceName == Array("first again.mp4".utf8) })
        #expect(duplicate.state == .published && duplicate.reason?.code == "duplicate")
        #expect(duplicate.mediaID == all.first { $0.sourceName == Array("first.mp4".utf8) }?.id)
        #expect(try await harness.store.videoCount() == 2)

        let (data, _) = try await URLSession.shared.data(from: URL(string: base + "/v1/feed")!)
        let items = try #require(
            (try JSONSerialization.jsonObject(with: data) as? [String: Any])?["items"] as? [[String: Any]])
        #expect(items.count == 2)
        for item in items {
            let master = try #require(item["master_url"] as? String)
            let (playlist, response) = try await URLSession.shared.data(from: URL(string: base + master)!)
            #expect(
                (response as? HTTPURLResponse)?.value(forHTTPHeaderField: "Content-Type")
                    == "application/vnd.apple.mpegurl")
            let variant = try #require(
                String(decoding: playlist, as: UTF8.self).split(separator: "\n").first { !$0.hasPrefix("#") })
            let variantURL = URL(string: base + master)!.deletingLastPathComponent().appendingPathComponent(
                String(variant))
            let (media, _) = try await URLSession.shared.data(from: variantURL)
            let segment = try #require(
                String(decoding: media, as: UTF8.self).split(separator: "\n").first { !$0.hasPrefix("#") })
            let (bytes, segmentResponse) = try await URLSession.shared.data(
                from: variantURL.deletingLastPathComponent().appendingPathComponent(String(segment)))
            #expect((segmentResponse as? HTTPURLResponse)?.statusCode == 200 && bytes.count > 100)
            #expect((segmentResponse as? HTTPURLResponse)?.value(forHTTPHeaderField: "Content-Type") == "video/mp4")
            let poster = try #require(item["poster_webp_url"] as? String)
            let (_, posterResponse) = try await URLSession.shared.data(from: URL(string: base + poster)!)
            #expect((posterResponse as? HTTPURLResponse)?.statusCode == 200)
            // The storyboard: published with the ladder, linked from the item, served with its types.
            let storyboard = try #require(item["storyboard"] as? [String: Any], "\(item)")
            let vtt = try #require(storyboard["vtt_url"] as? String)
            let sheet = try #require(storyboard["image_url"] as? String)
            #expect(vtt == master.replacingOccurrences(of: "master.m3u8", with: "storyboard.vtt"))
            #expect(sheet == master.replacingOccurrences(of: "master.m3u8", with: "storyboard.webp"))
            let (cues, vttResponse) = try await URLSession.shared.data(from: URL(string: base + vtt)!)
            #expect(
                (vttResponse as? HTTPURLResponse)?.value(forHTTPHeaderField: "Content-Type")
                    == "text/vtt; charset=utf-8")
            let cueCount =
                String(decoding: cues, as: UTF8.self).components(separatedBy: "storyboard.webp#xywh=").count - 1
            #expect(
                String(decoding: cues, as: UTF8.self).hasPrefix("WEBVTT") && cueCount == storyboard["count"] as? Int)
            let (_, sheetResponse) = try await URLSession.shared.data(from: URL(string: base + sheet)!)
            #expect((sheetResponse as? HTTPURLResponse)?.value(forHTTPHeaderField: "Content-Type") == "image/webp")
        }
        let published = try #require(all.first { $0.state == .published && $0.kind == .video })
        let (jobData, _) = try await URLSession.shared.data(from: URL(string: base + "/v1/jobs/" + published.id)!)
        let job = try #require(try JSONSerialization.jsonObject(with: jobData) as? [String: Any])
        #expect(job["state"] as? String == "published" && job["progress_percent"] as? Int == 100)
        let text = try #require(all.first { $0.sourceName == Array("notes.mp4".utf8) })
        #expect(text.state == .rejected && text.reason?.code == "unsupported_format")
        #expect(try harness.reason(text.id)["original_name"] as? String == "notes.mp4")
        #expect(harness.entries("images").count == 2)
        #expect(harness.entries(".staging").isEmpty && harness.entries(".incoming").isEmpty)
        try await harness.checkPublishedVideosAreComplete()
        let admin = try #require(adminBase(server), "\(server.stdout)")
        let (metrics, _) = try await URLSession.shared.data(from: URL(string: admin + "/metrics")!)
        let exposition = String(decoding: metrics, as: UTF8.self)
        #expect(exposition.contains(#"reel_worker_jobs_total{state="published"} 5"#), "\(exposition)")
        #expect(exposition.contains(#"reel_worker_jobs_total{state="rejected"} 1"#), "\(exposition)")
        #expect(exposition.contains("reel_worker_job_duration_seconds_bucket"), "\(exposition)")
        server.signal(SIGTERM)
        #expect(try await server.exit(within: .seconds(120)) == 0, "\(server.stderr.suffix(2000))")
    }

    @Test func refusedUploadsLandInRejectedBesideTheirReason() async throws {
        let harness = try WorkerHarness()
        try harness.drop("empty.mp4", [])
        try harness.drop("playlist.mp4", Array("#EXTM3U\n#EXTINF:1,\n/etc/passwd\n#EXT-X-ENDLIST\n".utf8))
        try harness.drop("bomb.png", SyntheticImage.pngBomb(width: 16000, height: 16000))
        let clip = harness.directory.file("clip.mp4")
        try SyntheticVideo(width: 320, height: 180, seconds: 1.5).write(to: clip)
        let whole = try Data(contentsOf: URL(fileURLWithPath: clip))
        try harness.drop("truncated.mp4", Array(whole.prefix(whole.count / 3)))
        try FileManager.default.createSymbolicLink(atPath: harness.inbox + "/link.mp4", withDestinationPath: clip)
        #expect(mkfifo(harness.inbox + "/pipe.mp4", 0o600) == 0)
        try FileManager.default.createDirectory(
            atPath: harness.inbox + "/folder.mp4", withIntermediateDirectories: false)
        let result = try await harness.runOnce()
        #expect(result.status == 0, "\(result.stderr.suffix(2000))")
        let expected = [
            "empty.mp4": "empty_file", "playlist.mp4": "forbidden_format", "bomb.png": "pixel_count_exceeds_limit",
            "link.mp4": "not_regular_file", "pipe.mp4": "not_regular_file", "folder.mp4": "not_regular_file",
        ]
        let jobs = try await harness.jobs()
        #expect(jobs.count == 7)
        for job in jobs {
            let name = String(decoding: job.sourceName, as: UTF8.self)
            #expect(job.state == .rejected, "\(name)")
            if let reason = expected[name] { #expect(job.reason?.code == reason, "\(name): \(job.reason?.code ?? "")") }
            if name == "truncated.mp4" {
                #expect(
                    ["truncated", "decode_error", "probe_failed"].contains(job.reason?.code ?? ""),
                    "\(job.reason?.code ?? "")")
            }
            let file = try harness.reason(job.id)
            #expect(file["reason"] as? String == job.reason?.code)
            #expect(file["original_name"] as? String == name)
            #expect((file["message"] as? String)?.isEmpty == false)
            #expect(harness.entries("rejected").contains(job.id), "\(name) is not in rejected/")
        }
        // The symlink moved as a link: its target is untouched and nothing was published.
        #expect(FileManager.default.fileExists(atPath: clip))
        #expect(try await harness.store.videoCount() == 0)
        #expect(harness.entries("originals").isEmpty)
        #expect(((try? FileManager.default.contentsOfDirectory(atPath: harness.inbox)) ?? []).isEmpty)
        #expect(harness.jsonLines(result.stdout).count == 7)
    }

    @Test func hostileNamesAreDataNeverPaths() async throws {
        let harness = try WorkerHarness()
        let names: [[UInt8]] = [
            Array("new\nline.png".utf8), Array("rtl\u{202E}gnp.exe.png".utf8), Array("%d%n%s.png".utf8),
            Array("$(touch pwned).png".utf8), Array("; rm -rf ~ #.png".utf8),
            [0x62, 0x61, 0x64, 0xFF, 0xFE, 0x2E, 0x70, 0x6E, 0x67],
        ]
        for (index, name) in names.enumerated() {
            let bytes = try SyntheticImage.png(width: 40 + index, height: 30, alpha: false)
            let directory = open(harness.inbox, O_RDONLY | O_DIRECTORY)
            let file = (name.map { CChar(bitPattern: $0) } + [0]).withUnsafeBufferPointer {
                openat(directory, $0.baseAddress!, O_WRONLY | O_CREAT | O_EXCL, 0o600)
            }
            #expect(file >= 0)
            _ = bytes.withUnsafeBytes { write(file, $0.baseAddress, $0.count) }
            close(file)
            close(directory)
        }
        let result = try await harness.runOnce()
        #expect(result.status == 0, "\(result.stderr.suffix(2000))")
        let jobs = try await harness.jobs()
        #expect(jobs.count == names.count)
        #expect(jobs.allSatisfy { $0.state == .published }, "\(jobs.map { ($0.state, $0.reason, $0.lastError) })")
        #expect(Set(jobs.map(\.sourceName)) == Set(names))
        #expect(harness.entries("images").allSatisfy { $0.hasSuffix(".e1.webp") && $0.count == 28 })
        #expect(!FileManager.default.fileExists(atPath: FileManager.default.currentDirectoryPath + "/pwned"))
        let reported = harness.jsonLines(result.stdout).compactMap { $0["file"] as? String }
        #expect(
            reported.contains("new\\u{a}line.png") && reported.contains("rtl\\u{202e}gnp.exe.png")
                && reported.contains("bad\\xff\\xfe.png"),
            "\(reported)")
    }

    @Test func aFileStillBeingWrittenIsNotTakenEarly() async throws {
        let harness = try WorkerHarness()
        let clip = harness.directory.file("clip.mp4")
        try SyntheticVideo(width: 320, height: 180, seconds: 1.5).write(to: clip)
        let bytes = try Data(contentsOf: URL(fileURLWithPath: clip))
        // 2 s to settle against writes 0.3 s apart: a generous margin on a loaded machine.
        let worker = try harness.startWorker(["--settle", "2.0"])
        let target = harness.inbox + "/slow.mp4"
        let handle = try #require(
            FileHandle(
                forWritingAtPath: {
                    _ = FileManager.default.createFile(atPath: target, contents: nil)
                    return target
                }()))
        let chunks = 8
        // The chunks go in on a thread of their own, 0.3 s apart: that spacing against the 2 s settle is what is under
        // test, and a test suspended between chunks could resume seconds late on a loaded concurrency pool.
        let seen = try await onOwnThread("writes slow.mp4 in \(chunks) chunks") {
            // When each chunk went in, seconds from the first: a run saw the file taken at 7 of 8 chunks.
            var seen: [(fileThere: Bool, noJobs: Bool, wroteAt: Double)] = []
            let start = Date()
            for index in 0..<chunks {
                let range = (bytes.count * index / chunks)..<(bytes.count * (index + 1) / chunks)
                let wroteAt = Date().timeIntervalSince(start)
                handle.write(bytes.subdata(in: range))
                Thread.sleep(forTimeInterval: 0.3)
                seen.append(
                    (FileManager.default.fileExists(atPath: target), try harness.jobStatesBlocking().isEmpty, wroteAt))
            }
            try handle.close()
            return seen
        }
        for (index, look) in seen.enumerated() {
            #expect(look.fileThere, "taken after \(index + 1) of \(chunks) chunks, written at \(seen.map(\.wroteAt)) s")
            #expect(look.noJobs)
        }
        let jobs = try await harness.waitForJobs(count: 1)
        #expect(jobs.first?.state == .published, "\(jobs.map { ($0.state, $0.reason, $0.lastError) })")
        worker.signal(SIGTERM)
        #expect(try await worker.exit(within: .seconds(120)) == 0)
    }

    @Test func twoWorkersOnOneInboxProcessEachUploadExactlyOnce() async throws {
        let harness = try WorkerHarness()
        let first = try harness.startWorker()
        let second = try harness.startWorker()
        for index in 0..<10 {
            try harness.drop("image-\(index).png", try SyntheticImage.png(width: 64 + index, height: 48, alpha: false))
        }
        let jobs = try await harness.waitForJobs(count: 10)
        try await Task.sleep(for: .milliseconds(500))
        first.signal(SIGTERM)
        second.signal(SIGTERM)
        let firstStatus = try await first.exit(within: .seconds(120)),
            secondStatus = try await second.exit(within: .seconds(120))
        #expect(firstStatus == 0 && secondStatus == 0)
        #expect(try await harness.jobs().count == 10)
        #expect(jobs.allSatisfy { $0.state == .published && $0.attempts == 1 })
        #expect(Set(jobs.map(\.sourceName)).count == 10)
        #expect(harness.entries("images").count == 10 && harness.entries("originals").count == 10)
        let reports = harness.jsonLines(first.stdout) + harness.jsonLines(second.stdout)
        #expect(reports.count == 10)
        #expect(Set(reports.compactMap { $0["job"] as? String }).count == 10)
        #expect(
            !harness.jsonLines(first.stdout).isEmpty && !harness.jsonLines(second.stdout).isEmpty,
            "both workers took uploads")
    }

    @Test(arguments: ["during-transcode", "after-playable", "after-staging", "after-rename", "after-commit"])
    func aKilledWorkerLosesNothingAndLeavesNothingHalfDone(point: String) async throws {
        let harness = try WorkerHarness()
        // A kill during the transcode needs one long enough to be caught with progress; the injected points are
        // reached whatever the clip, so they get a small one (the CPU is the test step's bound, docs/testing.md).
        let large = point == "during-transcode"
        try await harness.dropVideo(
            "clip.mp4", width: large ? 1280 : 640, height: large ? 720 : 360, seconds: large ? 6 : 3)
        try harness.drop("photo.png", try SyntheticImage.png(width: 200, height: 150, alpha: false))
        if point == "during-transcode" {
            let worker = try harness.startWorker()
            // Watched, and the worker killed, on a thread of its own: the transcode lasts seconds, and a test task can
            // resume later than that while CPU-bound tests hold both threads of the concurrency pool.
            let (progressed, jobs) = try await onOwnThread("kills the worker once a job reports progress") {
                let progressed = ChildProcess.waitUntil(seconds: 300) {
                    (try? harness.jobStatesBlocking().contains { $0.state == .processing && $0.progress > 0 }) ?? false
                }
                worker.signal(SIGKILL)
                return (
                    progressed,
                    (try? harness.jobStatesBlocking().map { "\($0.state.map(\.rawValue) ?? "?") \($0.progress)" }) ?? []
                )
            }
            #expect(progressed, "no job reported progress within 300 s: \(jobs)\n\(worker.stderr.suffix(2000))")
            #expect(try await worker.exit(within: .seconds(30)) == 128 + SIGKILL)
        } else {
            let worker = try harness.startWorker(environment: ["REEL_FAULT_INJECTION": point])
            let waited = await ChildProcess.suspendUntil(seconds: 60) { worker.hasExited }
            #expect(waited, "the fault point \(point) was not reached within 60 s (the worker did not exit)")
            #expect(try await worker.exit(within: .seconds(30)) == 128 + SIGKILL)
        }
        let restart = try await harness.runOnce()
        #expect(restart.status == 0, "\(restart.stderr.suffix(2000))")
        let jobs = try await harness.jobs()
        #expect(jobs.count == 2)
        #expect(jobs.allSatisfy { $0.state == .published }, "\(jobs.map { ($0.state, $0.reason, $0.lastError) })")
        #expect(harness.entries(".staging").isEmpty)
        #expect(harness.entries(".incoming").isEmpty)
        #expect(harness.entries("originals").count == 2)
        // Only the published claim's outputs are left: an earlier claim's are removed by the job's next holder. A
        // provisional rendition (issue 64) stays until the sweep's grace period is over: a page or player may still
        // name it.
        var publishedFolders: [String] = []
        for item in try await harness.store.page(limit: 50, after: nil).items {
            let video = try #require(try await harness.store.video(id: item.id))
            #expect(video.stage == .published)
            publishedFolders.append(String(video.masterPath?.dropFirst("videos/".count).prefix { $0 != "/" } ?? ""))
        }
        let folders = harness.entries("videos")
        #expect(folders.filter { !$0.hasSuffix(".playable") } == publishedFolders.sorted(), "\(folders)")
        let published = Set(publishedFolders.map { $0.prefix { $0 != "." } })
        #expect(folders.allSatisfy { published.contains($0.prefix { $0 != "." }) }, "\(folders)")
        if point == "after-playable" {
            #expect(folders.contains { $0.hasSuffix(".e1.playable") }, "the killed claim's post played: \(folders)")
        }
        #expect(((try? FileManager.default.contentsOfDirectory(atPath: harness.inbox)) ?? []).isEmpty)
        try await harness.checkPublishedVideosAreComplete()
    }

    @Test func aJobThatCrashesEveryTimeOrHangsEndsFailedAndTheWorkerGoesOn() async throws {
        let harness = try WorkerHarness()
        try harness.drop("crash.png", try SyntheticImage.png(width: 90, height: 60, alpha: false))
        let crashed = try await harness.runOnce(
            ["--max-attempts", "2"], environment: ["REEL_FAULT_INJECTION": "job-crash"])
        #expect(crashed.status == 0, "\(crashed.stderr.suffix(2000))")
        try harness.drop("hang.png", try SyntheticImage.png(width: 91, height: 60, alpha: false))
        let hung = try await harness.runOnce(
            ["--job-timeout", "2", "--max-attempts", "1"], environment: ["REEL_FAULT_INJECTION": "job-hang"])
        #expect(hung.status == 0, "\(hung.stderr.suffix(2000))")
        let jobs = try await harness.jobs()
        let crash = try #require(jobs.first { $0.sourceName == Array("crash.png".utf8) })
        let hang = try #require(jobs.first { $0.sourceName == Array("hang.png".utf8) })
        // A crash is Reel's failure, not the upload's: retried, then failed once the attempts are spent.
        #expect(crash.state == .failed && crash.reason?.code == "crashed" && crash.attempts == 2, "\(crash)")
        #expect(
            (crash.lastError ?? "").contains("SIGSEGV") && (crash.lastError ?? "").contains("gave up after 2 attempts"))
        #expect(crashed.stderr.components(separatedBy: "job will be retried").count - 1 == 1)
        #expect(hang.state == .failed && hang.reason?.code == "timeout", "\(hang)")
        #expect(try harness.reason(crash.id, in: "failed")["reason"] as? String == "crashed")
        #expect(harness.entries("failed").contains(hang.id) && harness.entries("failed").contains(crash.id))
        #expect(harness.entries("rejected").isEmpty)
    }

    @Test func transientFailuresAreRetriedWithBackoffThenFailed() async throws {
        let harness = try WorkerHarness()
        try harness.drop("photo.png", try SyntheticImage.png(width: 90, height: 60, alpha: false))
        let started = Date()
        let result = try await harness.runOnce(
            ["--max-attempts", "3"], environment: ["REEL_FAULT_INJECTION": "job-transient"])
        #expect(result.status == 0, "\(result.stderr.suffix(2000))")
        // Backoff 2 s after the first attempt and 4 s after the second.
        #expect(Date().timeIntervalSince(started) >= 6)
        let job = try #require(try await harness.jobs().first)
        #expect(job.state == .failed && job.attempts == 3 && job.reason?.code == "output_failed", "\(job)")
        #expect((job.lastError ?? "").contains("gave up after 3 attempts"))
        #expect(
            harness.entries("failed").contains(job.id) && harness.entries("failed").contains(job.id + ".reason.json"))
        #expect(result.stderr.components(separatedBy: "job will be retried").count - 1 == 2)
    }

    @Test func sigtermRequeuesARunningJobAfterTheGracePeriod() async throws {
        let harness = try WorkerHarness()
        try await harness.dropVideo("clip.mp4", width: 640, height: 360, seconds: 4)
        let worker = try harness.startWorker(["--grace", "0"])
        // Watched, and SIGTERM sent, on a thread of its own: the job processes for a few seconds, and a test task can
        // resume later than that while CPU-bound tests hold both threads of the concurrency pool.
        let processing = try await onOwnThread("sends SIGTERM once a job is processing") {
            let processing = ChildProcess.waitUntil(seconds: 300) {
                (try? harness.jobStatesBlocking().contains { $0.state == .processing }) ?? false
            }
            worker.signal(SIGTERM)
            return processing
        }
        #expect(processing, "no job was processing within 300 s")
        #expect(try await worker.exit(within: .seconds(120)) == 0, "\(worker.stderr.suffix(2000))")
        let jobs = try await harness.jobs()
        #expect(
            jobs.count == 1 && jobs[0].state == .queued && jobs[0].attempts == 0,
            "\(jobs.map { ($0.state, $0.attempts) })")
        #expect(harness.entries(".incoming") == [jobs[0].id])
        #expect(harness.entries(".staging").isEmpty)
        let restart = try await harness.runOnce()
        #expect(restart.status == 0)
        #expect(try await harness.jobs().first?.state == .published)
    }
}

/// The foundation's hostile uploads, through the worker: none crashes it, none reaches the network, none makes
/// anything read outside the inbox.
@Suite(.timeLimit(.minutes(10))) struct WorkerHostileInputTests {
    @Test func hostileUploadsAreRefusedWithoutSocketsOrOutsideReads() async throws {
        let harness = try WorkerHarness()
        let listener = try LoopbackListener()
        let secret = harness.directory.file("secret.ts")
        try Data(String(repeating: "SECRET", count: 500).utf8).write(to: URL(fileURLWithPath: secret))
        let watcher = try OpenWatcher(path: secret)
        let url = "http://127.0.0.1:\(listener.port)"
        let files = HostileCorpus.files(url: url, secret: secret)
        for (name, bytes) in files { try harness.drop(name, bytes) }
        try FileManager.default.createSymbolicLink(
            atPath: harness.inbox + "/secret-link.mp4", withDestinationPath: secret)
        #expect(mkfifo(harness.inbox + "/fifo.mp4", 0o600) == 0)
        let result = try await harness.runOnce()
        #expect(result.status == 0, "the worker did not survive: \(result.stderr.suffix(2000))")
        let jobs = try await harness.jobs()
        #expect(jobs.count == files.count + 2)
        for job in jobs {
            #expect(job.state == .rejected, "\(String(decoding: job.sourceName, as: UTF8.self)) was \(job.state)")
            #expect(
                job.reason?.code != "crashed" && job.reason?.code != "timeout",
                "\(String(decoding: job.sourceName, as: UTF8.self)): \(job.reason?.code ?? "")")
        }
        #expect(listener.acceptedConnections() == 0, "a hostile upload reached the network")
        #expect(!watcher.wasOpened, "a hostile upload made something read outside the inbox")
        #expect(try await harness.store.videoCount() == 0)
    }
}
