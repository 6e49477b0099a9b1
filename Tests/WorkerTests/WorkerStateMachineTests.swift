import Catalog
import FileSystem
import Foundation
import GRDB
import Logging
import MediaFixtures
import MediaModel
import SQLiteCatalog
import TestServers
import Testing
import Worker

/// The worker's state machine driven in-process through the `JobLauncher` seam: publishing, rejection, retries with
/// backoff, giving up, spawn failures, crashes, duplicates, recovery and injected file-system faults.
@Suite(.timeLimit(.minutes(10))) struct WorkerStateMachineTests {
    @Test func publishesImagesAndVideosAndFilesTheOriginals() async throws {
        let rig = try WorkerRig()
        let launcher = ScriptedJobLauncher { invocation, _ in
            (try? String(contentsOfFile: invocation.source, encoding: .utf8))?.hasPrefix("video") == true
                ? .publishVideo : .publishImage
        }
        try rig.drop("photo.png", Array("image bytes".utf8))
        try rig.drop("clip.mp4", Array("video bytes".utf8))
        let worker = try rig.makeWorker(rig.configuration(launcher))
        try await rig.runUntilIdle(worker)
        let jobs = try await rig.jobs()
        #expect(jobs.count == 2 && jobs.allSatisfy { $0.state == .published && $0.attempts == 1 }, "\(jobs)")
        let video = try #require(jobs.first { $0.kind == .video })
        let image = try #require(jobs.first { $0.kind == .image })
        // Each claim publishes under keys of its own: the first claim is epoch 1.
        #expect(rig.entries("videos") == [video.id + ".e1"])
        #expect(rig.entries("videos/\(video.id).e1") == ["360p", "master.m3u8", "storyboard.vtt", "storyboard.webp"])
        // The storyboard is published with the ladder, and the feed's record names its files in the library.
        let item = try #require(try await rig.store.item(id: video.id)).video()
        #expect(item.storyboard?.vttPath == "videos/\(video.id).e1/storyboard.vtt", "\(item)")
        #expect(item.storyboard?.imagePath == "videos/\(video.id).e1/storyboard.webp", "\(item)")
        #expect(try await rig.store.video(id: video.id)?.storyboard?.count == 2)
        // The job's loudness (issue 61) goes from its outcome into the catalog and the feed's record.
        #expect(item.loudness?.sourceLUFS == -31.25 && item.loudness?.gainDB == 17.25, "\(item)")
        #expect(try await rig.store.video(id: video.id)?.loudness == item.loudness)
        #expect(rig.entries("images") == [image.id + ".e1.webp"])
        #expect(rig.entries("originals") == [image.id, video.id].sorted())
        #expect(rig.entries(".incoming").isEmpty && rig.entries(".staging").isEmpty)
        #expect(try await rig.store.page(limit: 10, after: nil).items.map(\.id) == [video.id])
    }

    /// Each rendition's codec, CRF and target SSIM-Y go from the job's summary into the catalog and the feed item.
    @Test func publishesEachRenditionsCodecCRFAndTarget() async throws {
        let rig = try WorkerRig()
        try rig.drop("clip.mp4", Array("video bytes".utf8))
        let worker = try rig.makeWorker(rig.configuration(ScriptedJobLauncher { _, _ in .publishMultiCodecVideo }))
        try await rig.runUntilIdle(worker)
        let job = try #require(try await rig.jobs().first)
        #expect(job.state == .published, "\(job)")
        let video = try #require(try await rig.store.video(id: job.id))
        #expect(video.renditions.map(\.rung) == ["360p", "360p-hevc", "360p-av1"])
        #expect(video.renditions.map(\.videoCodec) == ["h264", "hevc", "av1"])
        #expect(video.renditions.map(\.crf) == [24, 28, 38])
        #expect(video.renditions.map(\.targetSSIMY) == [0.9625, 0.9625, nil])
        #expect(
            video.renditions.map(\.codecs) == [
                "avc1.64001e,mp4a.40.2", "hvc1.1.6.L63.90,mp4a.40.2", "av01.0.01M.08,mp4a.40.2",
            ])
        let hevc = try #require(try await rig.store.item(id: job.id)).video().renditions.first {
            $0.rung == "360p-hevc"
        }
        #expect(
            hevc?.videoCodec == "hevc" && hevc?.crf == 28 && hevc?.targetSSIMY == 0.9625, "\(String(describing: hevc))")
    }

    @Test func aRejectedUploadLandsInRejectedWithItsReason() async throws {
        let rig = try WorkerRig()
        try rig.drop("notes.mp4")
        let worker = try rig.makeWorker(rig.configuration(ScriptedJobLauncher { _, _ in .reject(.unsupportedFormat) }))
        try await rig.runUntilIdle(worker)
        let job = try #require(try await rig.jobs().first)
        #expect(job.state == .rejected && job.reason == .rejected(.unsupportedFormat) && job.attempts == 1)
        #expect(rig.entries("rejected") == [job.id, job.id + ".reason.json"])
        #expect(try rig.reason(job.id, in: "rejected")["original_name"] as? String == "notes.mp4")
    }

    @Test func transientFailuresBackOffExponentiallyThenGiveUp() async throws {
        let rig = try WorkerRig()
        try rig.drop("photo.png")
        let launcher = ScriptedJobLauncher { _, _ in .fail(.outputFailed, retryable: true) }
        let worker = try rig.makeWorker(rig.configuration(launcher) { $0.maxAttempts = 3 })
        try await rig.runUntilIdle(worker)
        let job = try #require(try await rig.jobs().first)
        #expect(job.state == .failed && job.attempts == 3 && job.reason == .failed(.outputFailed), "\(job)")
        #expect((job.lastError ?? "").contains("gave up after 3 attempts"))
        #expect(rig.entries("failed") == [job.id, job.id + ".reason.json"])
        #expect(try rig.reason(job.id, in: "failed")["reason"] as? String == "output_failed")
        // 0.05 s after the first failure, 0.1 s after the second: each wait at least the backoff.
        let times = launcher.launches.map(\.at)
        #expect(times.count == 3)
        if times.count == 3 {
            #expect(times[1] - times[0] >= 0.05 && times[2] - times[1] >= 0.1, "\(times)")
        }
    }

    @Test func aRetryThatPassesPublishes() async throws {
        let rig = try WorkerRig()
        try rig.drop("photo.png")
        let launcher = ScriptedJobLauncher { _, attempt in
            attempt == 1 ? .fail(.outputFailed, retryable: true) : .publishImage
        }
        let worker = try rig.makeWorker(rig.configuration(launcher))
        try await rig.runUntilIdle(worker)
        let job = try #require(try await rig.jobs().first)
        #expect(job.state == .published && job.attempts == 2, "\(job)")
    }

    @Test func aJobThatCrashesEveryTimeEndsFailedAndOthersStillPublish() async throws {
        let rig = try WorkerRig()
        try rig.drop("poison.png", Array("poison".utf8))
        try rig.drop("fine.png", Array("fine".utf8))
        let launcher = ScriptedJobLauncher { invocation, _ in
            (try? String(contentsOfFile: invocation.source, encoding: .utf8)) == "poison" ? .crash : .publishImage
        }
        let worker = try rig.makeWorker(rig.configuration(launcher) { $0.maxAttempts = 3 })
        try await rig.runUntilIdle(worker)
        let jobs = try await rig.jobs()
        let poison = try #require(jobs.first { $0.sourceName == Array("poison.png".utf8) })
        #expect(poison.state == .failed && poison.reason == .failed(.crashed) && poison.attempts == 3, "\(poison)")
        #expect((poison.lastError ?? "").contains("SIGSEGV"))
        #expect(jobs.first { $0.sourceName == Array("fine.png".utf8) }?.state == .published)
        #expect(rig.entries("failed").contains(poison.id))
    }

    @Test func aJobProcessThatCannotStartIsRetriedThenFailed() async throws {
        let rig = try WorkerRig()
        try rig.drop("photo.png")
        let worker = try rig.makeWorker(
            rig.configuration(ScriptedJobLauncher { _, _ in .refuseToStart }) { $0.maxAttempts = 2 })
        try await rig.runUntilIdle(worker)
        let job = try #require(try await rig.jobs().first)
        #expect(job.state == .failed && job.reason == .failed(.spawnFailed) && job.attempts == 2, "\(job)")
        #expect(rig.entries("failed").contains(job.id))
    }

    @Test func aHungJobTimesOut() async throws {
        let rig = try WorkerRig()
        try rig.drop("photo.png")
        let worker = try rig.makeWorker(
            rig.configuration(ScriptedJobLauncher { _, _ in .hang }) {
                $0.jobTimeoutSeconds = 0.3
                $0.maxAttempts = 1
            })
        try await rig.runUntilIdle(worker)
        let job = try #require(try await rig.jobs().first)
        #expect(job.state == .failed && job.reason == .failed(.timeout), "\(job)")
    }

    /// Cancellation re-queues a running job at once, though a cancelled task's catalog access is refused.
    @Test func cancellationRequeuesARunningJobAtOnce() async throws {
        let rig = try WorkerRig()
        try rig.drop("photo.png")
        let worker = try rig.makeWorker(rig.configuration(ScriptedJobLauncher { _, _ in .hang }) { $0.once = false })
        let running = Task { try await worker.run() }
        let started = await ChildProcess.suspendUntil(seconds: 60) {
            (try? await rig.jobs().first?.state == .processing) ?? false
        }
        #expect(started, "the job never started")
        running.cancel()
        try await running.value
        let job = try #require(try await rig.jobs().first)
        #expect(job.state == .queued && job.attempts == 0 && job.owner == nil, "\(job)")
    }

    @Test func cancellationBetweenAClaimAndItsLaunchRequeuesTheJobAtOnce() async throws {
        let rig = try WorkerRig()
        try rig.drop("photo.png")
        let catalog = FaultyCatalog(rig.store, fault: .shutdownMidStart)
        let configuration = rig.configuration(ScriptedJobLauncher { _, _ in .hang }) { $0.once = false }
        let worker = try Worker(
            configuration: configuration, store: catalog, logger: Logger(label: "reel.worker.test"))
        let running = Task { try await worker.run() }
        let reached = await ChildProcess.suspendUntil(seconds: 60) { catalog.startReachedTheCheck }
        #expect(reached, "the job never reached its duplicate check")
        running.cancel()
        try await running.value
        let job = try #require(try await rig.jobs().first)
        #expect(job.state == .queued && job.attempts == 0 && job.owner == nil, "\(job)")
    }

    @Test func aFailureTheCatalogCouldNotTakeIsRecordedOnceItAnswers() async throws {
        let rig = try WorkerRig()
        try rig.drop("photo.png")
        let catalog = FaultyCatalog(rig.store, fault: .awayAtFirstRequeue)
        let log = LogLines()
        let launcher = ScriptedJobLauncher { _, attempt in
            attempt == 1 ? .fail(.outputFailed, retryable: true) : .publishImage
        }
        // A lease far longer than the test: the job comes back through this worker's own recovery, not an expiry.
        let configuration = rig.configuration(launcher) { $0.leaseSeconds = 600 }
        let worker = try Worker(configuration: configuration, store: catalog, logger: log.logger())
        try await rig.runUntilIdle(worker)
        let job = try #require(try await rig.jobs().first)
        #expect(job.state == .published && launcher.launches.count == 2, "\(job) \(log.all)")
        #expect(log.all.contains { $0.hasPrefix("cannot record a job's failure") }, "\(log.all)")
        #expect(!log.all.contains { $0.hasPrefix("lost a job's lease") }, "\(log.all)")
    }

    @Test func aWorkerWhoseJobWasTakenOverWhileItsCatalogWasAwaySaysSoAndLetsItBe() async throws {
        let rig = try WorkerRig()
        try rig.drop("photo.png")
        let catalog = FaultyCatalog(rig.store, fault: .takenOverAtFirstRequeue(by: "host-b"))
        let log = LogLines()
        let launcher = ScriptedJobLauncher { _, _ in .fail(.outputFailed, retryable: true) }
        let configuration = rig.configuration(launcher) {
            $0.leaseSeconds = 600
            $0.once = false
        }
        let worker = try Worker(configuration: configuration, store: catalog, logger: log.logger())
        let running = Task { try await worker.run() }
        let learned = await ChildProcess.suspendUntil(seconds: 60) {
            log.all.contains { $0.hasPrefix("lost a job's lease") }
        }
        worker.requestStop()
        try await running.value
        #expect(learned, "\(log.all)")
        // The new holder keeps the job: this worker neither re-queued nor ran it again.
        let job = try #require(try await rig.jobs().first)
        #expect(job.state == .processing && job.owner == "host-b" && job.epoch == 2, "\(job)")
        #expect(launcher.launches.count == 1 && log.all.filter { $0.hasPrefix("lost a job's lease") }.count == 1)
    }

    @Test func aByteIdenticalReuploadIsADuplicate() async throws {
        let rig = try WorkerRig()
        let bytes = Array("the same bytes".utf8)
        try rig.drop("first.png", bytes)
        let launcher = ScriptedJobLauncher { _, _ in .publishImage }
        try await rig.runUntilIdle(try rig.makeWorker(rig.configuration(launcher)))
        try rig.drop("again.png", bytes)
        try await rig.runUntilIdle(try rig.makeWorker(rig.configuration(launcher)))
        let jobs = try await rig.jobs()
        let first = try #require(jobs.first { $0.sourceName == Array("first.png".utf8) })
        let again = try #require(jobs.first { $0.sourceName == Array("again.png".utf8) })
        #expect(again.state == .published && again.reason == .duplicate && again.mediaID == first.id, "\(again)")
        #expect(launcher.launches.count == 1)
        #expect(rig.entries("images") == [first.id + ".e1.webp"] && rig.entries("originals") == [first.id])
        #expect(rig.entries(".incoming").isEmpty)
    }

    @Test func twoIdenticalUploadsInParallelPublishOnce() async throws {
        let rig = try WorkerRig()
        let bytes = Array("twins".utf8)
        try rig.drop("a.png", bytes)
        try rig.drop("b.png", bytes)
        // Both are hashed and started before either publishes; the catalog's unique hash decides.
        let worker = try rig.makeWorker(
            rig.configuration(ScriptedJobLauncher { _, _ in .publishImage }) { $0.jobs = 2 })
        try await rig.runUntilIdle(worker)
        let jobs = try await rig.jobs()
        #expect(jobs.count == 2 && jobs.allSatisfy { $0.state == .published }, "\(jobs)")
        #expect(jobs.filter { $0.reason == .duplicate }.count == 1)
        #expect(Set(jobs.compactMap(\.mediaID)).count == 1)
        #expect(rig.entries("images").count == 1 && rig.entries("originals").count == 1)
    }

    @Test func aDeadWorkersJobIsRecoveredAndPublished() async throws {
        let rig = try WorkerRig()
        try Directory.create(rig.library + "/.incoming")
        try rig.drop("photo.png")
        // A worker that took the upload, claimed its job and died: no live lock holds its token.
        let id = "0123456789abcdef0123"
        try await rig.store.insertJob(
            id: id, sourceName: Array("photo.png".utf8), bytes: 10, owner: "deadbeef", now: 1, leaseMilliseconds: 60_000
        )
        try Directory.move(rig.inbox + "/photo.png", to: rig.library + "/.incoming/" + id)
        try await rig.store.release(JobLease(id: id, epoch: 0, owner: "deadbeef"), now: 1)
        // Its lease has not expired: the dead worker is found by its lock file alone.
        let claimed = try #require(
            try await rig.store.claimNextJob(
                owner: "deadbeef", now: Int64(Date().timeIntervalSince1970 * 1000),
                leaseMilliseconds: 600_000))
        try Directory.create(rig.library + "/.staging/" + id + ".\(claimed.epoch)")
        let worker = try rig.makeWorker(rig.configuration(ScriptedJobLauncher { _, _ in .publishImage }))
        try await rig.runUntilIdle(worker)
        let job = try #require(try await rig.store.job(id: id))
        // The dead worker's attempt is not counted against the upload.
        #expect(job.state == .published && job.attempts == 1, "\(job)")
        #expect(rig.entries("originals") == [id] && rig.entries(".staging").isEmpty)
    }

    @Test(arguments: [
        (WorkerFaults.Step.hashUpload, EIO), (.createStaging, ENOSPC), (.publishOutputs, EIO), (.publishOutputs, EROFS),
    ])
    func aFileSystemFaultInOneStepIsRetried(step: WorkerFaults.Step, code: Int32) async throws {
        let rig = try WorkerRig()
        try rig.drop("photo.png")
        let configuration = rig.configuration(ScriptedJobLauncher { _, _ in .publishImage })
        configuration.faults.raise(step, errno: code, times: 1)
        let worker = try rig.makeWorker(configuration)
        try await rig.runUntilIdle(worker)
        let job = try #require(try await rig.jobs().first)
        #expect(job.state == .published, "\(step) \(code): \(job)")
        // A full disk costs no attempt; other faults do.
        #expect(job.attempts == (code == ENOSPC ? 1 : 2), "\(step) \(code): \(job)")
        #expect(rig.entries("originals").count == 1 && rig.entries(".incoming").isEmpty)
    }

    @Test func aVideoPublishedOnItsRetryKeepsItsStoryboard() async throws {
        let rig = try WorkerRig()
        try rig.drop("clip.mp4", Array("video bytes".utf8))
        let configuration = rig.configuration(ScriptedJobLauncher { _, _ in .publishVideo })
        configuration.faults.raise(.publishOutputs, errno: EIO, times: 1)
        let worker = try rig.makeWorker(configuration)
        try await rig.runUntilIdle(worker)
        let job = try #require(try await rig.jobs().first)
        #expect(job.state == .published && job.attempts == 2, "\(job)")
        // Published by the second claim, under its own keys; the first claim published nothing.
        #expect(rig.entries("videos") == [job.id + ".e2"])
        #expect(
            rig.entries("videos/\(job.id).e2").contains("storyboard.vtt")
                && rig.entries("videos/\(job.id).e2").contains("storyboard.webp"))
        #expect(
            try await rig.store.item(id: job.id)?.video().storyboard?.vttPath == "videos/\(job.id).e2/storyboard.vtt")
        #expect(rig.entries(".staging").isEmpty && rig.entries(".incoming").isEmpty)
    }

    @Test func aVerdictThatCannotBeFiledIsFiledLater() async throws {
        let rig = try WorkerRig()
        try rig.drop("notes.mp4")
        let configuration = rig.configuration(ScriptedJobLauncher { _, _ in .reject(.unsupportedFormat) })
        configuration.faults.raise(.writeReason, errno: EIO, times: 1)
        configuration.faults.raise(.moveOriginal, errno: EROFS, times: 1)
        let worker = try rig.makeWorker(configuration)
        try await rig.runUntilIdle(worker)
        let job = try #require(try await rig.jobs().first)
        #expect(job.state == .rejected && job.attempts == 1)
        // Recovery's sweep wrote the reason file and moved the original once the faults passed.
        #expect(
            rig.entries("rejected") == [job.id, job.id + ".reason.json"],
            "\(rig.entries("rejected")) \(rig.entries(".incoming"))")
    }

    @Test func aBusyCatalogDelaysWorkButLosesNothing() async throws {
        let rig = try WorkerRig(busyTimeout: 0.05)
        try rig.drop("photo.png")
        // Another connection holds the write lock for a while, as a long transaction elsewhere would.
        let locker = try SQLiteCatalogDatabase(path: rig.directory.file("catalog.sqlite"))
        let held = Task.detached {
            try await locker.pool.writeWithoutTransaction { db in
                try db.inTransaction(.immediate) {
                    // GRDB runs this on its writer's dispatch queue, not on the concurrency pool: holding the lock
                    // for a second here blocks only that queue, as a long transaction elsewhere would.
                    Thread.sleep(forTimeInterval: 1.0)
                    return .commit
                }
            }
        }
        try await Task.sleep(for: .milliseconds(100))
        let worker = try rig.makeWorker(rig.configuration(ScriptedJobLauncher { _, _ in .publishImage }))
        try await rig.runUntilIdle(worker)
        try await held.value
        let jobs = try await rig.jobs()
        #expect(jobs.count == 1 && jobs.first?.state == .published, "\(jobs)")
    }
}
