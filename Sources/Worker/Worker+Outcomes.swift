internal import Catalog
internal import FileSystem
internal import Foundation
internal import Logging
internal import MediaModel
internal import MediaStore
internal import Metrics
internal import Sandbox

extension Worker {
    /// Any error of one job's processing or bookkeeping becomes that job's failure: retried with backoff while it
    /// may pass and attempts remain, otherwise `failed`. When even that cannot be recorded (the catalog is busy),
    /// the job stays held by this worker and recovery re-queues it; nothing here throws.
    func handle(_ error: any Error, for job: FeedJob, seconds: Double) async {
        Directory.remove(staging(of: job))
        if let error = error as? CatalogError, error.kind == .leaseLost {
            // Taken over (this worker's lease expired): the new holder finishes the job; nothing here is recorded.
            logger.warning(
                "lost a job's lease; its new holder finishes it", metadata: ["job": "\(job.id)", "error": "\(error)"])
            return
        }
        var failure = Self.classify(error, path: scratch.incoming(job.id))
        if failure.reason == .storageUnavailable, configuration.scratchIsShared, isDiskNearlyFull() {
            // The library is on this host's full disk (a directory store says only that it is unavailable): wait for
            // space as for any other write that met a full disk.
            failure.reason = .diskFull
        }
        if failure.reason == .diskFull { noteDiskFull(failure) }
        do {
            try await retryOrFail(job, failure, seconds: seconds)
        } catch let error as CatalogError where error.kind == .leaseLost {
            // Taken over while the job ran (a fenced job's staging can vanish under it): the same as above.
            logger.warning(
                "lost a job's lease; its new holder finishes it",
                metadata: ["job": "\(job.id)", "failure": "\(failure)", "error": "\(error)"])
        } catch {
            unrecorded[job.id] = job
            logger.error(
                "cannot record a job's failure; recovery will re-queue it",
                metadata: ["job": "\(job.id)", "failure": "\(failure)", "error": "\(error)"])
        }
    }

    /// A full disk or quota, whether this host's (`FileSystemError`) or the library's (`MediaStoreError.full`).
    static func isDiskFull(_ error: any Error) -> Bool {
        if let error = error as? FileSystemError { return error.isDiskFull }
        if case .full = error as? MediaStoreError { return true }
        return false
    }

    /// Decides, in one place, what kind of failure an error is.
    static func classify(_ error: any Error, path: String) -> ProcessingFailure {
        switch error {
        case let failure as ProcessingFailure:
            return failure
        case let error as FileSystemError:
            return ProcessingFailure(
                error.isDiskFull ? .diskFull : .outputFailed, error.description, path: path,
                retryable: error.isTransient)
        case let error as CatalogError:
            return ProcessingFailure(.catalogUnavailable, error.description, path: path, retryable: error.isTransient)
        case let error as MediaStoreError:
            // A library whose disk or quota is full waits for space, as the worker's own disk does.
            if case .full = error { return ProcessingFailure(.diskFull, error.description, path: path) }
            return ProcessingFailure(
                error.isRetryable ? .storageUnavailable : .outputFailed, error.description, path: path, retryable: true)
        default:
            return ProcessingFailure(.outputFailed, "\(error)", path: path, retryable: true)
        }
    }

    /// Transient failures go back to the queue with exponential backoff until the attempts run out; a full disk
    /// costs no attempt (the upload is not at fault) and waits for space instead.
    func retryOrFail(_ job: FeedJob, _ failure: ProcessingFailure, seconds: Double) async throws {
        let name = SourceName(job.sourceName)
        if failure.reason == .diskFull || failure.reason == .storageUnavailable {
            // Space or the store is missing, the upload is not at fault: no attempt is spent. A full disk is retried
            // once claiming resumes; a store that is away after the backoff.
            let delay = failure.reason == .diskFull ? 0 : configuration.backoff.delay(afterAttempt: job.attempts)
            try await store.requeue(
                job.lease, notBefore: delay == 0 ? 0 : Self.nowMilliseconds + Int64(delay * 1000), failure: failure,
                refundAttempt: true, now: Self.nowMilliseconds)
            logger.warning(
                failure.reason == .diskFull ? "job waits for disk space" : "job waits for the object store",
                metadata: ["job": "\(job.id)", "message": "\(failure.message)", "retry_in_s": "\(delay)"])
            return
        }
        if failure.retryable && job.attempts < configuration.maxAttempts {
            let delay = configuration.backoff.delay(afterAttempt: job.attempts)
            try await store.requeue(
                job.lease, notBefore: Self.nowMilliseconds + Int64(delay * 1000), failure: failure,
                refundAttempt: false, now: Self.nowMilliseconds)
            logger.warning(
                "job will be retried",
                metadata: [
                    "job": "\(job.id)", "reason": "\(failure.reason.rawValue)",
                    "message": "\(failure.message)", "attempt": "\(job.attempts)",
                    "retry_in_s": "\(delay)",
                ])
            return
        }
        var final = failure
        if failure.retryable { final.message += " (gave up after \(job.attempts) attempts)" }
        try await store.finishJob(job.lease, as: .failed(final), now: Self.nowMilliseconds)
        await fileVerdict(job, state: .failed, reason: .failed(final.reason), message: final.message)
        report(
            id: job.id, name: name, state: .failed, kind: job.kind, reason: .failed(final.reason),
            message: final.message,
            mediaID: nil, attempts: job.attempts, seconds: seconds)
    }

    /// The upload broke a rule: the verdict in the catalog first, then the reason file and the original beside it.
    func refuse(_ job: FeedJob, _ rejection: Rejection, kind: FeedJob.Kind?, seconds: Double) async throws {
        try await store.finishJob(job.lease, as: .rejected(rejection), kind: kind, now: Self.nowMilliseconds)
        Directory.remove(staging(of: job))
        await removePlayable(of: job)
        await fileVerdict(job, state: .rejected, reason: .rejected(rejection.reason), message: rejection.message)
        report(
            id: job.id, name: SourceName(job.sourceName), state: .rejected, kind: kind ?? job.kind,
            reason: .rejected(rejection.reason),
            message: rejection.message, mediaID: nil, attempts: job.attempts, seconds: seconds)
    }

    /// The reason file, then the original beside it (`rejected/<id>` or `failed/<id>`; where originals are stored at
    /// intake, it stays at `originals/<id>` and only this host's copy goes). Best effort once the catalog has the
    /// verdict: what cannot be written now (a full or read-only disk, a store that is away) is redone by recovery's
    /// sweep, which finds the upload still in `.incoming/`.
    func fileVerdict(_ job: FeedJob, state: FeedJob.State, reason: JobReason, message: String) async {
        do {
            let local = try? ReadOnlyFile(path: scratch.incoming(job.id))
            let bytes: Int64
            if let local {
                bytes = local.size
            } else {
                bytes = try await library.head(try MediaKey(LibraryLayout.original(job.id)))?.size ?? 0
            }
            try await writeReason(
                for: job.id, state: state, reason: reason, message: message, name: SourceName(job.sourceName),
                bytes: Int(bytes), contentHash: job.contentHash)
        } catch {
            if Self.isDiskFull(error) { noteDiskFull(error) }
            logger.warning(
                "cannot write a reason file yet; recovery will", metadata: ["job": "\(job.id)", "error": "\(error)"])
            return
        }
        await fileOriginal(job.id, at: LibraryLayout.verdict(job.id, rejected: state == .rejected))
    }

    /// A write found the library's disk full: stop claiming until space returns (logged once per episode).
    func noteDiskFull(_ cause: any Error) {
        let available = (try? DiskSpace.availableBytes(at: scratch.root)) ?? 0
        let transition = disk.noteFull(available: available, now: Self.monotonic)
        if transition != nil {
            status.setDiskFull(
                .init(path: scratch.root, availableBytes: available, requiredBytes: configuration.minimumFreeBytes))
        }
        if transition == .paused {
            logger.error(
                "the library's disk is full: no new uploads are claimed until space is freed",
                metadata: ["library": "\(scratch.root)", "available_bytes": "\(available)", "cause": "\(cause)"])
        }
    }

    /// Free space, measured every second (and logged only when the state changes).
    func checkDisk(now: Double) {
        guard now - lastDiskCheck >= 1 else { return }
        lastDiskCheck = now
        let available: Int64
        do { available = try DiskSpace.availableBytes(at: scratch.root) } catch {
            logger.error("cannot measure the library's free space", metadata: ["error": "\(error)"])
            return
        }
        switch disk.observe(available: available, now: now) {
        case .paused?:
            status.setDiskFull(
                .init(path: scratch.root, availableBytes: available, requiredBytes: configuration.minimumFreeBytes))
            logger.error(
                "the library's disk is nearly full: no new uploads are claimed until space is freed",
                metadata: [
                    "library": "\(scratch.root)", "available_bytes": "\(available)",
                    "minimum_free_bytes": "\(configuration.minimumFreeBytes)",
                ])
        case .resumed?:
            status.setDiskFull(nil)
            logger.notice("claiming uploads again", metadata: ["available_bytes": "\(available)"])
        case .stillFull?:
            break
        case nil:
            if disk.isPaused {
                status.setDiskFull(
                    .init(path: scratch.root, availableBytes: available, requiredBytes: configuration.minimumFreeBytes))
            }
        }
    }

    func recordRunning() {
        Gauge(label: "reel_worker_jobs_running", factory: metrics).record(running.count)
    }

    func report(
        id: String, name: SourceName, state: FeedJob.State, kind: FeedJob.Kind, reason: JobReason?, message: String?,
        mediaID: String?, attempts: Int, seconds: Double
    ) {
        Counter(label: "reel_worker_jobs_total", dimensions: [("state", state.rawValue)], factory: metrics).increment()
        Timer(
            label: "reel_worker_job_duration_seconds",
            dimensions: [("kind", kind.rawValue), ("state", state.rawValue)],
            factory: metrics
        ).recordNanoseconds(Int64(seconds * 1_000_000_000))
        var metadata: Logger.Metadata = [
            "job": "\(id)", "file": "\(name.display)", "kind": "\(kind.rawValue)",
            "state": "\(state.rawValue)", "seconds": "\(String(format: "%.2f", seconds))",
        ]
        if let reason { metadata["reason"] = "\(reason.code)" }
        if let message { metadata["message"] = "\(message)" }
        if let mediaID { metadata["media_id"] = "\(mediaID)" }
        let facts = processFacts[id]
        if let cpu = facts?.cpuSeconds { metadata["cpu_seconds"] = "\(String(format: "%.3f", cpu))" }
        let sandbox = facts?.sandbox
        if let sandbox {
            metadata["sandbox"] = "\(sandbox.protection)"
            metadata["sandbox_setup_ms"] = "\(String(format: "%.2f", sandbox.setupMilliseconds))"
        }
        logger.info("job finished", metadata: metadata)
        onFinished?(
            JobReport(
                job: id, file: name.display, state: state.rawValue, kind: kind.rawValue, reason: reason?.code,
                message: message, mediaID: mediaID, attempts: attempts, seconds: (seconds * 100).rounded() / 100,
                cpuSeconds: facts?.cpuSeconds.map { ($0 * 1000).rounded() / 1000 }, sandbox: sandbox?.protection,
                sandboxSetupMilliseconds: sandbox.map { ($0.setupMilliseconds * 1000).rounded() / 1000 }))
    }
}
