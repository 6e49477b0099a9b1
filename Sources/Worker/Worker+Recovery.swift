internal import Logging
internal import Transcode
internal import ChatImages
internal import MediaModel
internal import FeedStore
internal import FileSystem
internal import Foundation

extension Worker {
    /// Puts back what a dead worker (killed at any moment) left behind. A worker is dead when its lock file can be
    /// locked. Its jobs are re-queued, its half-published outputs and staging removed; uploads stuck between
    /// places are moved to where their job's state says they belong. Runs at start and every few seconds.
    func recover() throws {
        lastRecovery = Self.monotonic
        var deadOwners: Set<String> = []
        for job in try store.jobsHeld() {
            guard let holder = job.owner, holder != owner, Self.isToken(holder) else { continue }
            if !deadOwners.contains(holder) {
                guard try FileLock(path: layout.lock(holder)) != nil else { continue }  // alive
                deadOwners.insert(holder)
            }
            try recover(job)
        }
        for holder in deadOwners { Directory.remove(layout.lock(holder)) }
        try sweepIncoming()
        try sweepStaging()
    }

    func recover(_ job: FeedJob) throws {
        let now = Self.nowMilliseconds
        switch job.state {
        case .queued:
            // Died while taking the upload from the inbox.
            if Directory.exists(layout.incoming(job.id)) {
                try store.release(jobID: job.id, now: now)
            } else if Directory.exists(layout.rejected + "/" + job.id) {
                try store.finishJob(job.id, state: .rejected, reason: "not_regular_file",
                                    message: "the upload is not a regular file; only regular files are processed", now: now)
            } else {
                Directory.remove(reasonPath(in: layout.rejected, id: job.id))
                try store.deleteJob(id: job.id)  // the upload is still in the inbox and will be taken again
            }
        case .processing:
            Directory.remove(layout.staging(job.id))
            if try !store.isPublished(videoID: job.id) {
                Directory.remove(layout.video(job.id))
                Directory.remove(layout.image(job.id))
            }
            try store.requeue(job.id, notBefore: 0, reason: nil, message: nil, refundAttempt: true, now: now)
        case .published, .rejected, .failed:
            break
        }
        logger.warning("recovered a job from a dead worker", metadata: ["job": "\(job.id)", "state": "\(job.state.rawValue)",
                                                                        "dead_owner": "\(job.owner ?? "")"])
    }

    /// Uploads in `.incoming/` whose job already ended (the worker died between the catalog commit and the move).
    func sweepIncoming() throws {
        for entry in try Directory.entries(of: layout.incoming) {
            let id = String(decoding: entry.name, as: UTF8.self)
            guard Self.isToken(id) else { continue }
            guard let job = try store.job(id: id) else {
                // No row: never happens with rows written first, but an upload is never dropped. It gets a job.
                try store.insertJob(id: id, sourceName: Array("(recovered)".utf8), bytes: Int(entry.size), owner: owner,
                                    now: Self.nowMilliseconds)
                try store.release(jobID: id, now: Self.nowMilliseconds)
                continue
            }
            switch job.state {
            case .published where job.mediaID == id:
                try moveOriginal(id, to: layout.original(id), directory: layout.originals)
            case .published:
                Directory.remove(layout.incoming(id))  // a duplicate, recorded as such
            case .rejected:
                try moveOriginal(id, to: layout.rejected + "/" + id, directory: layout.rejected)
            case .failed:
                try moveOriginal(id, to: layout.failed + "/" + id, directory: layout.failed)
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
            Directory.remove(layout.staging + "/" + String(decoding: entry.name, as: UTF8.self))
        }
    }

    /// Ids and owner tokens are lowercase hex; anything else is never turned into a path.
    static func isToken(_ text: String) -> Bool {
        !text.isEmpty && text.count <= 64 && text.utf8.allSatisfy { (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }
    }
}
