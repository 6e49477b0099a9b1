internal import Logging
internal import MediaModel
internal import FeedStore
internal import FileSystem
internal import Foundation

extension Worker {
    /// Puts back what a dead worker (killed at any moment) left behind, and what this worker could not record
    /// (a busy catalog, a full disk). A worker is dead when its lock file can be locked. Its jobs are re-queued, its
    /// half-published outputs and staging removed; uploads stuck between places are moved to where their job's
    /// state says they belong. Runs at start and every two seconds.
    func recover() throws {
        lastRecovery = Self.monotonic
        var deadOwners: Set<String> = []
        for job in try store.jobsHeld() {
            guard let holder = job.owner, Self.isToken(holder) else { continue }
            if holder == owner {
                // Ours, but not running: an outcome that could not be recorded. The attempt counted.
                if running[job.id] == nil { recoverSafely(job, refundAttempt: false) }
                continue
            }
            if !deadOwners.contains(holder) {
                guard try FileLock(path: layout.lock(holder)) != nil else { continue }  // alive
                deadOwners.insert(holder)
            }
            recoverSafely(job, refundAttempt: true)
        }
        for holder in deadOwners { Directory.remove(layout.lock(holder)) }
        try sweepIncoming()
        try sweepStaging()
    }

    func recoverSafely(_ job: FeedJob, refundAttempt: Bool) {
        do {
            try recover(job, refundAttempt: refundAttempt)
        } catch {
            logger.error("cannot recover a job yet", metadata: ["job": "\(job.id)", "error": "\(error)"])
        }
    }

    func recover(_ job: FeedJob, refundAttempt: Bool) throws {
        let now = Self.nowMilliseconds
        switch job.state {
        case .queued:
            // Died (or failed) while taking the upload from the inbox.
            if Directory.exists(layout.incoming(job.id)) {
                try store.release(jobID: job.id, now: now)
            } else if Directory.exists(layout.rejected(job.id)) {
                let rejection = Rejection(.notRegularFile, "the upload is not a regular file; only regular files are processed",
                                          path: SourceName(job.sourceName).display)
                try store.finishJob(job.id, as: .rejected(rejection), now: now)
                try writeReason(for: job.id, in: layout.rejected, state: .rejected, reason: .rejected(.notRegularFile),
                                message: rejection.message, name: SourceName(job.sourceName), bytes: 0, contentHash: nil)
            } else {
                try store.deleteJob(id: job.id)  // the upload is still in the inbox and will be taken again
            }
        case .processing:
            try removeLeftovers(of: job.id)
            try store.requeue(job.id, notBefore: 0, failure: nil, refundAttempt: refundAttempt, now: now)
        case .published, .rejected, .failed:
            break
        }
        logger.warning("recovered a job", metadata: ["job": "\(job.id)", "state": "\(job.state.rawValue)",
                                                     "owner": "\(job.owner ?? "")", "dead_owner": "\(job.owner != owner)"])
    }

    /// Uploads in `.incoming/` whose job already ended: the worker died, or the disk refused, between the catalog
    /// commit and the move. They go where the verdict says, with their reason file.
    func sweepIncoming() throws {
        for entry in try Directory.entries(of: layout.incoming) {
            let id = String(decoding: entry.name, as: UTF8.self)
            guard Self.isToken(id), running[id] == nil else { continue }
            guard let job = try store.job(id: id) else {
                // No row: never happens with rows written first, but an upload is never dropped. It gets a job.
                try store.insertJob(id: id, sourceName: Array("(recovered)".utf8), bytes: Int(entry.size), owner: owner,
                                    now: Self.nowMilliseconds)
                try store.release(jobID: id, now: Self.nowMilliseconds)
                continue
            }
            switch job.state {
            case .published where job.mediaID == id:
                moveOriginal(id, to: layout.original(id))
            case .published:
                Directory.remove(layout.incoming(id))  // a duplicate, recorded as such
            case .rejected:
                fileVerdict(job, state: .rejected, reason: job.reason ?? .rejected(.unreadable), message: job.lastError ?? "",
                            in: layout.rejected)
            case .failed:
                fileVerdict(job, state: .failed, reason: job.reason ?? .failed(.crashed), message: job.lastError ?? "",
                            in: layout.failed)
            case .queued, .processing:
                break
            }
        }
    }

    /// Staging directories nobody is working on.
    func sweepStaging() throws {
        for entry in try Directory.entries(of: layout.staging) {
            let id = String(decoding: entry.name, as: UTF8.self)
            if running[id] != nil { continue }
            let job = try store.job(id: id)
            if job?.state == .processing, let holder = job?.owner, holder != owner, Self.isToken(holder),
               try FileLock(path: layout.lock(holder)) == nil {
                continue  // another live worker's job
            }
            Directory.remove(layout.staging + "/" + id)
        }
    }

    /// Ids and owner tokens are lowercase hex; anything else is never turned into a path.
    static func isToken(_ text: String) -> Bool {
        !text.isEmpty && text.count <= 64 && text.utf8.allSatisfy { (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }
    }
}
