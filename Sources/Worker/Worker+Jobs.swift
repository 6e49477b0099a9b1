internal import Transcode
internal import ChatImages
internal import MediaModel
internal import FeedStore
internal import FileSystem
internal import Foundation
internal import LibAV
internal import Metrics
internal import Logging

extension Worker {
    /// Claims queued jobs while there are free slots, and starts a job process for each.
    func fillSlots() throws {
        while running.count < configuration.jobs {
            guard let job = try store.claimNextJob(owner: owner, now: Self.nowMilliseconds) else { return }
            try start(job)
        }
    }

    func start(_ job: FeedJob) throws {
        let source = layout.incoming(job.id)
        let name = SourceName(job.sourceName)
        guard Directory.exists(source) else {
            try store.finishJob(job.id, state: .failed, reason: "upload_missing", message: "the upload vanished from the library",
                                now: Self.nowMilliseconds)
            return
        }
        let hash = try SHA256.file(path: source)
        if let existing = try store.publishedMedia(contentHash: hash) {
            // Recorded first; then the copy can go (the same bytes are kept under originals/ already).
            try store.finishDuplicate(job: job.id, of: existing, now: Self.nowMilliseconds)
            Directory.remove(source)
            report(id: job.id, name: name, state: .published, kind: existing.kind, reason: "duplicate",
                   message: "byte-identical to \(existing.kind.rawValue) \(existing.id)", mediaID: existing.id,
                   attempts: job.attempts, seconds: 0)
            return
        }
        try store.setJobFacts(id: job.id, contentHash: hash, now: Self.nowMilliseconds)
        var claimed = job
        claimed.contentHash = hash
        // Leftovers of an attempt that died before publishing.
        let staging = layout.staging(job.id)
        Directory.remove(staging)
        if try !store.isPublished(videoID: job.id) {
            Directory.remove(layout.video(job.id))
            Directory.remove(layout.image(job.id))
        }
        try Directory.create(staging)
        let cores = ProcessInfo.processInfo.activeProcessorCount
        let arguments = [configuration.executable, "worker-job", "--source", source, "--staging", staging,
                         "--memory-mb", String(configuration.memoryLimitMegabytes),
                         "--cpu-seconds", String(Int(configuration.jobTimeoutSeconds) * max(2, cores))] + configuration.jobArguments
        // Few malloc arenas keep the address-space limit meaningful; no Swift backtracer (a crash is recorded, not
        // symbolicated for a second while the job holds its slot).
        var environment = ["MALLOC_ARENA_MAX": "2", "LC_ALL": "C", "SWIFT_BACKTRACE": "enable=no"]
        if let path = ProcessInfo.processInfo.environment["PATH"] { environment["PATH"] = path }
        if let fault = faultPoint, fault.hasPrefix("job-") { environment["REEL_FAULT_INJECTION"] = fault }
        let process = try Subprocess(arguments, environment: environment, stdout: staging + "/stdout.log", stderr: staging + "/stderr.log")
        running[job.id] = RunningJob(job: claimed, process: process, started: Self.monotonic)
        recordRunning()
        logger.info("job started", metadata: ["job": "\(job.id)", "file": "\(name.display)", "attempt": "\(job.attempts)",
                                               "pid": "\(process.pid)"])
    }

    /// Finished, timed-out or progressing jobs.
    func pollRunning() throws {
        let now = Self.monotonic
        let before = running.count
        defer { if running.count != before { recordRunning() } }
        for (id, var entry) in running {
            if let termination = entry.process.poll() {
                running[id] = nil
                try finish(entry, termination: termination, timedOut: false)
            } else if now - entry.started > configuration.jobTimeoutSeconds {
                let termination = entry.process.kill()
                running[id] = nil
                try finish(entry, termination: termination, timedOut: true)
            } else if now - entry.lastProgressCheck >= 1 {
                entry.lastProgressCheck = now
                if let text = try? String(contentsOfFile: JobRunner.progressFile(layout.staging(id)), encoding: .utf8),
                   let progress = Double(text.trimmingCharacters(in: .whitespacesAndNewlines)), progress > entry.reportedProgress {
                    entry.reportedProgress = progress
                    try store.setJobProgress(id: id, progress: progress, now: Self.nowMilliseconds)
                }
                running[id] = entry
            }
        }
    }

    func recordRunning() {
        Gauge(label: "reel_worker_jobs_running", factory: metrics).record(running.count)
    }

    func finish(_ entry: RunningJob, termination: Subprocess.Termination, timedOut: Bool) throws {
        let job = entry.job
        let seconds = Self.monotonic - entry.started
        if timedOut {
            return try refuse(job, reason: "timeout",
                              message: "processing took longer than the \(Int(configuration.jobTimeoutSeconds)) s limit and was stopped",
                              seconds: seconds)
        }
        let outcome = try? JSONDecoder().decode(JobOutcome.self,
                                                from: Data(contentsOf: URL(fileURLWithPath: JobRunner.outcomeFile(layout.staging(job.id)))))
        switch termination {
        case let .signalled(signal):
            let reason = signal == SIGXCPU ? "timeout" : "crashed"
            let message = signal == SIGXCPU
                ? "processing used more than its CPU-time limit and was stopped"
                : "the job process died with \(Subprocess.signalName(signal)) while processing this upload "
                    + "(its limits: \(configuration.memoryLimitMegabytes) MB of address space, \(Int(configuration.jobTimeoutSeconds)) s)"
            try refuse(job, reason: reason, message: message, seconds: seconds)
        case let .exited(code):
            guard let outcome else {
                let tail = (try? String(contentsOfFile: layout.staging(job.id) + "/stderr.log", encoding: .utf8))?.suffix(300) ?? ""
                return try retryOrFail(job, reason: "crashed", message: "the job process exited \(code) without an outcome: \(tail)",
                                       retryable: code == JobOutcome.ExitCode.retryable, seconds: seconds)
            }
            switch outcome.status {
            case .published:
                try publish(job, outcome: outcome, seconds: seconds)
            case .rejected:
                if let kind = outcome.kind { try store.setJobFacts(id: job.id, kind: kind == .video ? .video : .image, now: Self.nowMilliseconds) }
                try refuse(job, reason: outcome.reason ?? "rejected", message: outcome.message ?? "refused", seconds: seconds)
            case .failed:
                try retryOrFail(job, reason: outcome.reason ?? "failed", message: outcome.message ?? "failed",
                                retryable: outcome.retryable, seconds: seconds)
            }
        }
    }

    /// The outputs go into place (renamed, then the directory fsynced), then the catalog row in one transaction,
    /// then the original to `originals/`. A reader sees the video only once all of its files are there.
    func publish(_ job: FeedJob, outcome: JobOutcome, seconds: Double) throws {
        let staging = layout.staging(job.id)
        let name = SourceName(job.sourceName)
        reach("after-staging")
        do {
            if let summary = outcome.video {
                try Directory.move(JobRunner.mediaDirectory(staging), to: layout.video(job.id))
                try Directory.sync(layout.videos)
                reach("after-rename")
                let top = summary.renditions.max { $0.height < $1.height }
                let source = (try? JSONEncoder().encode(outcome.info)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
                let prefix = "videos/\(job.id)/"
                let video = PublishedVideo(
                    id: job.id, createdAt: job.createdAt, publishedAt: Self.nowMilliseconds,
                    durationMilliseconds: Int((summary.durationSeconds * 1000).rounded()),
                    width: top?.width ?? 0, height: top?.height ?? 0, contentHash: job.contentHash ?? job.id, source: source,
                    masterPath: prefix + "master.m3u8", posterJPEGPath: prefix + summary.posterJPEG,
                    posterWebPPath: prefix + summary.posterWebP,
                    renditions: summary.renditions.map {
                        FeedVideo.Rendition(rung: $0.id, width: $0.width, height: $0.height, bandwidth: $0.bandwidth,
                                            averageBandwidth: $0.averageBandwidth, codecs: $0.codecs, segments: $0.segments)
                    })
                do {
                    try store.publish(video, job: job.id, now: Self.nowMilliseconds)
                } catch {
                    // The same bytes published by a parallel job a moment ago (content_hash is unique)?
                    guard try isPublishedElsewhere(job) else { throw error }
                    Directory.remove(layout.video(job.id))
                    return try finishAsDuplicate(job, seconds: seconds)
                }
            } else if let image = outcome.image {
                try Directory.move(JobRunner.imageFile(staging), to: layout.image(job.id))
                try Directory.sync(layout.images)
                reach("after-rename")
                let published = PublishedImage(id: job.id, createdAt: job.createdAt, width: image.width, height: image.height,
                                               bytes: image.bytes, path: "images/\(job.id).webp", contentHash: job.contentHash ?? job.id)
                do {
                    try store.publish(published, job: job.id, now: Self.nowMilliseconds)
                } catch {
                    guard try isPublishedElsewhere(job) else { throw error }
                    Directory.remove(layout.image(job.id))
                    return try finishAsDuplicate(job, seconds: seconds)
                }
            } else {
                return try retryOrFail(job, reason: "crashed", message: "the job reported success without an output",
                                       retryable: false, seconds: seconds)
            }
        } catch let error as FileSystemError {
            return try retryOrFail(job, reason: "output_failed", message: "\(error)", retryable: error.isTransient, seconds: seconds)
        }
        reach("after-commit")
        try moveOriginal(job.id, to: layout.original(job.id), directory: layout.originals)
        Directory.remove(staging)
        let kind: FeedJob.Kind = outcome.video != nil ? .video : .image
        report(id: job.id, name: name, state: .published, kind: kind, reason: nil, message: nil, mediaID: job.id,
               attempts: job.attempts, seconds: seconds)
    }

    func isPublishedElsewhere(_ job: FeedJob) throws -> Bool {
        guard let hash = job.contentHash, let existing = try store.publishedMedia(contentHash: hash) else { return false }
        return existing.id != job.id
    }

    func finishAsDuplicate(_ job: FeedJob, seconds: Double) throws {
        guard let hash = job.contentHash, let existing = try store.publishedMedia(contentHash: hash) else { return }
        try store.finishDuplicate(job: job.id, of: existing, now: Self.nowMilliseconds)
        Directory.remove(layout.incoming(job.id))
        Directory.remove(layout.staging(job.id))
        report(id: job.id, name: SourceName(job.sourceName), state: .published, kind: existing.kind, reason: "duplicate",
               message: "byte-identical to \(existing.kind.rawValue) \(existing.id)", mediaID: existing.id, attempts: job.attempts,
               seconds: seconds)
    }

    /// The upload broke a rule, crashed or hung its job: the reason file, the original beside it, then the row.
    func refuse(_ job: FeedJob, reason: String, message: String, seconds: Double) throws {
        let name = SourceName(job.sourceName)
        try writeReason(in: layout.rejected, id: job.id, state: .rejected, reason: reason, message: message, name: name,
                        bytes: (try? FileManager.default.attributesOfItem(atPath: layout.incoming(job.id))[.size] as? Int) ?? 0,
                        contentHash: job.contentHash)
        try moveOriginal(job.id, to: layout.rejected + "/" + job.id, directory: layout.rejected)
        try store.finishJob(job.id, state: .rejected, reason: reason, message: message, now: Self.nowMilliseconds)
        Directory.remove(layout.staging(job.id))
        report(id: job.id, name: name, state: .rejected, kind: job.kind, reason: reason, message: message, mediaID: nil,
               attempts: job.attempts, seconds: seconds)
    }

    /// Transient failures go back to the queue with exponential backoff until the attempts run out.
    func retryOrFail(_ job: FeedJob, reason: String, message: String, retryable: Bool, seconds: Double) throws {
        Directory.remove(layout.staging(job.id))
        if retryable && job.attempts < configuration.maxAttempts {
            let delay = configuration.backoff.delay(afterAttempt: job.attempts)
            try store.requeue(job.id, notBefore: Self.nowMilliseconds + Int64(delay * 1000), reason: reason, message: message,
                              now: Self.nowMilliseconds)
            logger.warning("job will be retried", metadata: ["job": "\(job.id)", "reason": "\(reason)", "message": "\(message)",
                                                             "attempt": "\(job.attempts)", "retry_in_s": "\(delay)"])
            return
        }
        let name = SourceName(job.sourceName)
        let final = retryable ? "\(message) (gave up after \(job.attempts) attempts)" : message
        try writeReason(in: layout.failed, id: job.id, state: .failed, reason: reason, message: final, name: name,
                        bytes: 0, contentHash: job.contentHash)
        try moveOriginal(job.id, to: layout.failed + "/" + job.id, directory: layout.failed)
        try store.finishJob(job.id, state: .failed, reason: reason, message: final, now: Self.nowMilliseconds)
        report(id: job.id, name: name, state: .failed, kind: job.kind, reason: reason, message: final, mediaID: nil,
               attempts: job.attempts, seconds: seconds)
    }

    func moveOriginal(_ id: String, to destination: String, directory: String) throws {
        guard Directory.exists(layout.incoming(id)) else { return }
        try Directory.move(layout.incoming(id), to: destination)
        try Directory.sync(directory)
        try Directory.sync(layout.incoming)
    }

    /// Shutdown after the grace period: the job processes are killed and their jobs re-queued as they were.
    func abandonRunning() throws {
        for (id, entry) in running {
            _ = entry.process.kill()
            Directory.remove(layout.staging(id))
            try store.requeue(id, notBefore: 0, reason: nil, message: nil, refundAttempt: true, now: Self.nowMilliseconds)
            logger.warning("job re-queued at shutdown", metadata: ["job": "\(id)"])
        }
        running.removeAll()
    }

    func report(id: String, name: SourceName, state: FeedJob.State, kind: FeedJob.Kind, reason: String?, message: String?,
                mediaID: String?, attempts: Int, seconds: Double) {
        Counter(label: "reel_worker_jobs_total", dimensions: [("state", state.rawValue)], factory: metrics).increment()
        Timer(label: "reel_worker_job_duration_seconds", dimensions: [("kind", kind.rawValue), ("state", state.rawValue)],
              factory: metrics).recordNanoseconds(Int64(seconds * 1_000_000_000))
        var metadata: Logger.Metadata = ["job": "\(id)", "file": "\(name.display)", "kind": "\(kind.rawValue)",
                                         "state": "\(state.rawValue)", "seconds": "\(String(format: "%.2f", seconds))"]
        if let reason { metadata["reason"] = "\(reason)" }
        if let message { metadata["message"] = "\(message)" }
        if let mediaID { metadata["media_id"] = "\(mediaID)" }
        logger.info("job finished", metadata: metadata)
        onFinished?(JobReport(job: id, file: name.display, state: state.rawValue, kind: kind.rawValue, reason: reason,
                              message: message, mediaID: mediaID, attempts: attempts, seconds: (seconds * 100).rounded() / 100))
    }
}
