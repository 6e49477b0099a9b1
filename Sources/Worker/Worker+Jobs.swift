internal import Catalog
internal import FileSystem
internal import Foundation
internal import Logging
internal import MediaModel
internal import MediaStore
internal import NIOPosix

extension Worker {
    /// Claims queued jobs while there are free slots and the disk has room, and starts a job process for each.
    func fillSlots() async {
        lastQueueLook = Self.monotonic
        while running.count < configuration.jobs && !disk.isPaused {
            let job: FeedJob
            do {
                guard
                    let claimed = try await store.claimNextJob(
                        owner: owner, now: Self.nowMilliseconds,
                        leaseMilliseconds: leaseMilliseconds)
                else {
                    queueAnnounced = false
                    return
                }
                job = claimed
            } catch {
                logger.error("cannot claim a job; trying again later", metadata: ["error": "\(error)"])
                return
            }
            do {
                try await start(job)
            } catch {
                guard Task.isCancelled else {
                    await handle(error, for: job, seconds: 0)
                    continue
                }
                // Shutdown landed between the claim and the launch (the catalog refuses a cancelled task's reads):
                // the job goes back as it was, as a running one does, rather than wait out its lease.
                Directory.remove(staging(of: job))
                await requeueAtShutdown(job.lease, id: job.id)
                return
            }
        }
    }

    /// Hashes the upload (a byte-identical re-upload ends as a duplicate at once), prepares a fresh staging directory
    /// and launches the job process. An upload that is not in this host's `.incoming/` (another host took it, into a
    /// scratch directory of its own) is fetched from the library's `originals/<id>` into the claim's staging first.
    func start(_ job: FeedJob) async throws {
        var source = scratch.incoming(job.id)
        var prepared: StagingDirectory?
        // A fetched original was hashed as it arrived.
        var fetchedHash: String?
        if !Directory.exists(source) {
            try await removeLeftovers(of: job)
            #if REEL_TEST_HOOKS
            try configuration.faults.check(.createStaging, path: staging(of: job))
            #endif
            let workspace = try StagingDirectory(creating: staging(of: job))
            source = workspace.path + "/original"
            do {
                fetchedHash = try await library.download(try MediaKey(LibraryLayout.original(job.id)), to: source)
            } catch {
                workspace.discard()
                throw error
            }
            guard fetchedHash != nil else {
                workspace.discard()
                return try await failMissing(job, path: scratch.incoming(job.id))
            }
            prepared = workspace
        }
        guard Directory.exists(source) else { return try await failMissing(job, path: source) }
        #if REEL_TEST_HOOKS
        try configuration.faults.check(.hashUpload, path: source)
        #endif
        let hash: String
        if let fetchedHash {
            hash = fetchedHash
        } else {
            // Up to 50 MB read and digested: on NIO's thread pool, not this actor's thread.
            let hashed = try await NIOThreadPool.singleton.runIfActive {
                [source] () -> Result<String, ReadOnlyFile.OpenError> in
                Result { () throws(ReadOnlyFile.OpenError) in try ContentHash.sha256(ofFile: source) }
            }
            switch hashed {
            case let .success(value): hash = value
            case let .failure(.failed(failure)): throw failure
            case let .failure(error):
                throw ProcessingFailure(.uploadMissing, "\(error)", path: source, retryable: false)
            }
        }
        // A post already playable from this job's earlier claim has these bytes too: it is this job's to finish.
        if let existing = try await store.publishedMedia(contentHash: hash), existing.id != job.id {
            return try await finishAsDuplicate(job, of: existing, seconds: 0)
        }
        try await store.setJobFacts(job.lease, contentHash: hash, now: Self.nowMilliseconds)
        var claimed = job
        claimed.contentHash = hash
        let workspace: StagingDirectory
        if let prepared {
            workspace = prepared
        } else {
            try await removeLeftovers(of: job)
            #if REEL_TEST_HOOKS
            try configuration.faults.check(.createStaging, path: staging(of: job))
            #endif
            workspace = try StagingDirectory(creating: staging(of: job))
        }
        let cores = ProcessInfo.processInfo.activeProcessorCount
        #if REEL_TEST_HOOKS
        let fault = configuration.faults.jobFault
        #else
        let fault: String? = nil
        #endif
        var invocation = JobInvocation(
            jobID: job.id, source: source, staging: workspace.path, memoryMegabytes: configuration.memoryLimitMegabytes,
            cpuSeconds: Int(configuration.jobTimeoutSeconds) * max(2, cores), ladderPath: configuration.ladderPath,
            limitsPath: configuration.limitsPath, fault: fault, encoderThreads: configuration.jobs < cores)
        invocation.sandbox = configuration.sandbox
        let process: any JobProcess
        do {
            process = try configuration.launcher.launch(invocation)
        } catch {
            throw ProcessingFailure(.spawnFailed, "the job process could not be started: \(error)", path: source)
        }
        running[job.id] = RunningJob(
            job: claimed, invocation: invocation, process: process, started: Self.monotonic,
            leaseRenewed: Self.monotonic)
        recordRunning()
        logger.info(
            "job started",
            metadata: [
                "job": "\(job.id)", "file": "\(SourceName(job.sourceName).display)",
                "attempt": "\(job.attempts)", "pid": "\(process.pid)",
            ])
    }

    /// This claim's staging directory: one per epoch, so a worker that lost its lease (and may still be running on
    /// another host) never writes into or deletes the new holder's.
    func staging(of job: FeedJob) -> String { scratch.staging(job.id) + "." + String(job.epoch) }

    /// The upload is gone (from the library, or from the store): the job fails for good.
    func failMissing(_ job: FeedJob, path: String) async throws {
        let failure = ProcessingFailure(
            .uploadMissing, "the upload vanished from the library before it was processed", path: path,
            retryable: false)
        try await store.finishJob(job.lease, as: .failed(failure), now: Self.nowMilliseconds)
        report(
            id: job.id, name: SourceName(job.sourceName), state: .failed, kind: job.kind,
            reason: .failed(.uploadMissing),
            message: failure.message, mediaID: nil, attempts: job.attempts, seconds: 0)
    }

    /// This claim's staging and the unpublished outputs of the job's earlier claims. Called only while this worker
    /// holds the job's lease; each claim's outputs have keys of their own, so nothing of this claim's is touched.
    func removeLeftovers(of job: FeedJob) async throws {
        Directory.remove(staging(of: job))
        try await removeEarlierClaims(of: job)
    }

    /// Finished, timed-out or progressing jobs. Each is handled on its own: one job's fault never stops the others.
    func pollRunning() async {
        let now = Self.monotonic
        let before = running.count
        defer { if running.count != before { recordRunning() } }
        for (id, var entry) in running {
            if let termination = entry.process.poll() {
                running[id] = nil
                await finish(entry, termination: termination, timedOut: false)
            } else if now - entry.started > configuration.jobTimeoutSeconds {
                let termination = entry.process.kill()
                running[id] = nil
                await finish(entry, termination: termination, timedOut: true)
            } else {
                if entry.playable.isDue(now: now) {
                    await syncPlayable(&entry)
                    // The sync waited on the library: the job may have been dropped (its lease lost) meanwhile.
                    if running[id] != nil { running[id] = entry }
                }
                guard now - entry.lastProgressCheck >= 1 else { continue }
                entry.lastProgressCheck = now
                if let bytes = try? ReadOnlyFile.contents(of: entry.invocation.progressFile, limit: 64),
                    let progress = Double(
                        String(decoding: bytes, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)),
                    progress > entry.reportedProgress
                {
                    entry.reportedProgress = progress
                    try? await store.setJobProgress(entry.lease, progress: progress, now: Self.nowMilliseconds)
                }
                running[id] = entry
            }
        }
    }

    /// Turns how the job process ended into the job's next state.
    func finish(_ entry: RunningJob, termination: Subprocess.Termination, timedOut: Bool) async {
        var entry = entry
        // A provisional rendition already in the feed is published whole first: a ladder that failed leaves it
        // playing, ended.
        if entry.playable.isInFeed { await syncPlayable(&entry, final: true) }
        let job = entry.job
        defer { processFacts[job.id] = nil }
        let seconds = Self.monotonic - entry.started
        let source = entry.invocation.source
        do {
            if timedOut {
                throw ProcessingFailure(
                    .timeout,
                    "processing took longer than the \(Int(configuration.jobTimeoutSeconds)) s limit and was stopped",
                    path: source)
            }
            switch termination {
            case let .signalled(signal):
                // A job cut short while the library's disk is full most likely ran into the wall: wait for space
                // instead of spending attempts.
                if isDiskNearlyFull() {
                    throw ProcessingFailure(
                        .diskFull,
                        "the job process died with \(Subprocess.signalName(signal)) while the library's disk was full",
                        path: source)
                }
                if signal == SIGXCPU {
                    throw ProcessingFailure(
                        .timeout, "processing used more than its CPU-time limit and was stopped", path: source)
                }
                throw ProcessingFailure(
                    .crashed,
                    "the job process died with \(Subprocess.signalName(signal)) while processing this upload "
                        + "(its limits: \(configuration.memoryLimitMegabytes) MB of address space, \(Int(configuration.jobTimeoutSeconds)) s)",
                    path: source)
            case let .exited(code):
                guard let bytes = try? ReadOnlyFile.contents(of: entry.invocation.outcomeFile),
                    let outcome = try? JSONDecoder().decode(JobOutcome.self, from: Data(bytes))
                else {
                    if code == JobInvocation.ExitCode.outcomeUnwritable || isDiskNearlyFull() {
                        throw ProcessingFailure(
                            .diskFull, "the job could not write its outcome: \(stderrTail(of: entry))", path: source)
                    }
                    throw ProcessingFailure(
                        .crashed, "the job process exited \(code) without an outcome: \(stderrTail(of: entry))",
                        path: source, retryable: true)
                }
                processFacts[job.id] = ProcessFacts(sandbox: outcome.sandbox, cpuSeconds: outcome.cpuSeconds)
                noteSandbox(outcome.sandbox, of: job)
                try await conclude(job, outcome: outcome, staging: entry.invocation.staging, seconds: seconds)
            }
        } catch {
            await handle(error, for: job, seconds: seconds)
        }
    }

    /// Less free space than the worker wants, and never less than 1 MiB.
    func isDiskNearlyFull() -> Bool {
        guard let available = try? DiskSpace.availableBytes(at: scratch.root) else { return false }
        return available < max(configuration.minimumFreeBytes, 1 << 20)
    }

    func stderrTail(of entry: RunningJob) -> String {
        let bytes = (try? ReadOnlyFile.contents(of: entry.invocation.stderrFile)) ?? []
        return String(decoding: bytes.suffix(300), as: UTF8.self)
    }

    /// The outcome file's verdict: publish, refuse, or fail or retry.
    func conclude(_ job: FeedJob, outcome: JobOutcome, staging: String, seconds: Double) async throws {
        switch outcome.error {
        case nil:
            try await publish(job, outcome: outcome, staging: staging, seconds: seconds)
        case let .rejected(rejection)?:
            try await refuse(
                job, rejection, kind: outcome.kind.map { $0 == .video ? .video : .image }, seconds: seconds)
        case let .failed(failure)?:
            throw failure
        }
    }

    /// Shutdown after the grace period, or cancellation: the job processes are killed and their jobs re-queued as
    /// they were (the attempt does not count).
    func abandonRunning() async {
        for (id, entry) in running {
            _ = entry.process.kill()
            Directory.remove(staging(of: entry.job))
            await requeueAtShutdown(entry.lease, id: id)
        }
        running.removeAll()
        recordRunning()
    }

    /// Puts a claimed job back in the queue as it was (the attempt does not count).
    func requeueAtShutdown(_ lease: JobLease, id: String) async {
        do {
            // In a task of its own, which is not cancelled: GRDB's async access refuses a cancelled task's work
            // (CancellationError), and this write must still happen. It is one short write; the loop waits for it.
            try await Task { [store] in
                try await store.requeue(
                    lease, notBefore: 0, failure: nil, refundAttempt: true, now: Self.nowMilliseconds)
            }.value
            logger.warning("job re-queued at shutdown", metadata: ["job": "\(id)"])
        } catch {
            logger.error(
                "cannot re-queue a job at shutdown; recovery will", metadata: ["job": "\(id)", "error": "\(error)"])
        }
    }
}

extension Worker {
    /// The heartbeat: every third of the lease, each running job's lease is extended. A lease found taken over (or
    /// one that could not be renewed for a whole lease period, so surely expired) ends that job here: its process is
    /// killed and its staging removed; the job's new holder finishes it, and this worker touches none of its files.
    func renewLeases() async {
        let now = Self.monotonic
        guard now - lastHeartbeat >= configuration.leaseSeconds / 3 else { return }
        lastHeartbeat = now
        for (id, var entry) in running {
            let lost: String?
            do {
                if try await store.renewLease(
                    entry.lease, until: Self.nowMilliseconds + leaseMilliseconds, now: Self.nowMilliseconds)
                {
                    entry.leaseRenewed = now
                    running[id] = entry
                    lost = nil
                } else {
                    lost = "another worker holds it now"
                }
            } catch {
                lost =
                    now - entry.leaseRenewed >= configuration.leaseSeconds
                    ? "it could not be renewed for \(Int(configuration.leaseSeconds)) s (\(error))" : nil
                if lost == nil {
                    logger.warning(
                        "cannot renew a job's lease; trying again", metadata: ["job": "\(id)", "error": "\(error)"])
                }
            }
            if let lost { dropLostJob(entry, why: lost) }
        }
    }

    /// A running job whose lease this worker no longer holds: it stops here without any catalog write.
    func dropLostJob(_ entry: RunningJob, why: String) {
        _ = entry.process.kill()
        running[entry.job.id] = nil
        Directory.remove(staging(of: entry.job))
        recordRunning()
        logger.warning(
            "lost a job's lease; its new holder finishes it",
            metadata: [
                "job": "\(entry.job.id)", "epoch": "\(entry.job.epoch)", "why": "\(why)",
            ])
    }
}
