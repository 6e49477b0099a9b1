internal import Catalog
internal import FileSystem
internal import Foundation
internal import Logging
internal import MediaModel
internal import MediaStore

extension Worker {
    /// Puts back what a dead worker (killed at any moment, on any host) left behind, and what this worker could not
    /// record (a busy catalog, a full disk). Another worker's job is taken back when its lease has expired (the
    /// holder died or lost the catalog), or at once when its lock file can be locked (a dead worker on a file system
    /// with working locks: the fast path). Its jobs are re-queued, each under the lease it was held by, so a job taken
    /// over in between is left alone. Uploads stuck between places are moved to where their job's state says they
    /// belong. Runs at start and every two seconds.
    func recover() async throws {
        lastRecovery = Self.monotonic
        var deadOwners: Set<String> = []
        var liveOwners: Set<String> = []
        var ours: Set<String> = []
        // Only those already unrecorded when the held jobs are read can be judged by that reading.
        let unsettled = unrecorded
        let now = Self.nowMilliseconds
        for job in try await store.jobsHeld() {
            guard let holder = job.owner, Self.isToken(holder) else { continue }
            if holder == owner {
                ours.insert(job.id)
                // Ours, but not running: an outcome that could not be recorded. The attempt counted.
                if running[job.id] == nil { await recoverSafely(job, refundAttempt: false) }
                continue
            }
            if let expiry = job.leaseExpiresAt, expiry < now {
                logger.warning(
                    "a job's lease expired; taking it back",
                    metadata: [
                        "job": "\(job.id)", "owner": "\(holder)", "epoch": "\(job.epoch)",
                        "expired_ms_ago": "\(now - expiry)",
                    ])
                await recoverSafely(job, refundAttempt: true)
                continue
            }
            if liveOwners.contains(holder) { continue }
            if !deadOwners.contains(holder) {
                guard try !holderIsAlive(holder) else {
                    liveOwners.insert(holder)
                    continue
                }
                deadOwners.insert(holder)
            }
            await recoverSafely(job, refundAttempt: true)
        }
        for holder in deadOwners { Directory.remove(scratch.lock(holder)) }
        noteUnrecorded(unsettled, stillOurs: ours)
        try await sweepIncoming()
        try await sweepStaging()
    }

    /// A job whose failure could not be recorded is settled once the catalog answers: re-queued above while this worker
    /// still holds it, or found taken over (a host cut off past its lease), which the log says as a heartbeat would.
    func noteUnrecorded(_ unsettled: [String: FeedJob], stillOurs: Set<String>) {
        for (id, job) in unsettled {
            unrecorded[id] = nil
            if stillOurs.contains(id) { continue }
            logger.warning(
                "lost a job's lease; its new holder finishes it",
                metadata: [
                    "job": "\(id)", "epoch": "\(job.epoch)",
                    "why": "another worker took it over while its failure could not be recorded",
                ])
        }
    }

    func recoverSafely(_ job: FeedJob, refundAttempt: Bool) async {
        do {
            try await recover(job, refundAttempt: refundAttempt)
        } catch let error as CatalogError where error.kind == .leaseLost {
            logger.info(
                "a job changed hands while it was being recovered; left to its holder", metadata: ["job": "\(job.id)"])
        } catch {
            logger.error("cannot recover a job yet", metadata: ["job": "\(job.id)", "error": "\(error)"])
        }
    }

    func recover(_ job: FeedJob, refundAttempt: Bool) async throws {
        let now = Self.nowMilliseconds
        switch job.state {
        case .queued:
            // Died (or failed) while taking the upload from the inbox.
            if Directory.exists(scratch.incoming(job.id)) {
                if !configuration.scratchIsShared { try await storeOriginal(job.id) }
                try await store.release(job.lease, now: now)
            } else if !configuration.scratchIsShared,
                try await library.head(try MediaKey(LibraryLayout.original(job.id))) != nil
            {
                try await store.release(job.lease, now: now)
            } else if !configuration.scratchIsShared,
                now - job.createdAt < Int64(configuration.sweepGraceSeconds * 1000)
            {
                // The host that took it has the only copy (in its scratch space) and stores it when it is back.
                return
            } else if Directory.exists(scratch.refused(job.id)) {
                let rejection = Rejection(
                    .notRegularFile, "the upload is not a regular file; only regular files are processed",
                    path: SourceName(job.sourceName).display)
                try await store.finishJob(job.lease, as: .rejected(rejection), now: now)
                try await writeReason(
                    for: job.id, state: .rejected, reason: .rejected(.notRegularFile),
                    message: rejection.message, name: SourceName(job.sourceName), bytes: 0, contentHash: nil)
            } else {
                try await store.deleteJob(job.lease)  // the upload is still in the inbox and will be taken again
            }
        case .processing:
            // Its staging is its own epoch's, and its outputs are cleared by the next holder before it publishes:
            // the previous holder may still be running (a cut link), and nothing of a new holder's may be touched.
            try await store.requeue(job.lease, notBefore: 0, failure: nil, refundAttempt: refundAttempt, now: now)
        case .published, .rejected, .failed:
            break
        }
        logger.warning(
            "recovered a job",
            metadata: [
                "job": "\(job.id)", "state": "\(job.state.rawValue)",
                "owner": "\(job.owner ?? "")", "dead_owner": "\(job.owner != owner)",
            ])
    }

    /// Uploads in `.incoming/` whose job already ended: the worker died, or the disk refused, between the catalog
    /// commit and the move. They go where the verdict says, with their reason file.
    func sweepIncoming() async throws {
        for entry in try Directory.entries(of: scratch.incoming) {
            let id = String(decoding: entry.name, as: UTF8.self)
            guard Self.isToken(id), running[id] == nil else { continue }
            guard let job = try await store.job(id: id) else {
                // A deleted post's upload (its job went with it) is removed, never queued again.
                if try await store.isDeleted(id: id) {
                    Directory.remove(scratch.incoming(id))
                    logger.info("removed a deleted post's upload", metadata: ["job": "\(id)"])
                    continue
                }
                // No row: never happens with rows written first, but an upload is never dropped. It gets a job.
                try await store.insertJob(
                    id: id, sourceName: Array("(recovered)".utf8), bytes: Int(entry.size), owner: owner,
                    now: Self.nowMilliseconds, leaseMilliseconds: leaseMilliseconds)
                if !configuration.scratchIsShared { try await storeOriginal(id) }
                try await store.release(JobLease(id: id, epoch: 0, owner: owner), now: Self.nowMilliseconds)
                continue
            }
            switch job.state {
            case .published where job.mediaID == id:
                await fileOriginal(id, at: LibraryLayout.original(id))
            case .published:
                Directory.remove(scratch.incoming(id))  // a duplicate, recorded as such
            case .rejected:
                await fileVerdict(
                    job, state: .rejected, reason: job.reason ?? .rejected(.unreadable), message: job.lastError ?? "")
            case .failed:
                await fileVerdict(
                    job, state: .failed, reason: job.reason ?? .failed(.crashed), message: job.lastError ?? "")
            case .queued, .processing:
                break
            }
        }
    }

    /// Staging directories nobody is working on: `<job>.<epoch>`, one per claim. A claim's directory stays while its
    /// job is processing at that epoch under a live lease; an older epoch's belongs to a holder that lost the job.
    func sweepStaging() async throws {
        let now = Self.nowMilliseconds
        for entry in try Directory.entries(of: scratch.staging) {
            let name = String(decoding: entry.name, as: UTF8.self)
            let parts = name.split(separator: ".", maxSplits: 1)
            let id = String(parts[0])
            let epoch = parts.count == 2 ? Int64(parts[1]) : nil
            if let held = running[id], held.job.epoch == epoch { continue }
            if let job = try await store.job(id: id), job.state == .processing, job.epoch == epoch,
                let holder = job.owner,
                holder != owner, Self.isToken(holder)
            {
                let leaseLive = job.leaseExpiresAt.map { $0 >= now } ?? true
                if leaseLive, try holderIsAlive(holder) { continue }  // another live worker's job
            }
            Directory.remove(scratch.staging + "/" + name)
        }
    }

    /// Whether the worker `holder` is alive by its lock file, the fast path next to lease expiry. Where the scratch
    /// directory is this host's own, so are the lock files: a holder without one here runs on another host, and only
    /// its lease can say it died.
    func holderIsAlive(_ holder: String) throws(FileSystemError) -> Bool {
        if !configuration.scratchIsShared, !Directory.exists(scratch.lock(holder)) { return true }
        return try FileLock(path: scratch.lock(holder)) == nil
    }

    /// Ids and owner tokens are lowercase hex; anything else is never turned into a path.
    static func isToken(_ text: String) -> Bool {
        !text.isEmpty && text.count <= 64
            && text.utf8.allSatisfy { (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }
    }
}
