internal import Foundation
internal import GRDB
public import MediaModel

/// The worker's job transitions. Each is one write transaction, so a crash leaves a job in exactly one state.
extension FeedStore {
    /// One job by id, or nil.
    public func job(id: String) throws(CatalogError) -> FeedJob? {
        try read { db in try Row.fetchOne(db, sql: "SELECT * FROM jobs WHERE id = ?", arguments: [id]).map(FeedJob.init(row:)) }
    }

    /// A new job for an upload this worker is about to move out of the inbox: queued and held by `owner` until the
    /// move succeeds (then `release`) or fails because another worker won (then `deleteJob`).
    public func insertJob(id: String, sourceName: [UInt8], bytes: Int, owner: String, now: Int64) throws(CatalogError) {
        try write { db in
            try db.execute(sql: """
                INSERT INTO jobs (id, kind, source_name, source_bytes, state, owner, created_at, updated_at)
                VALUES (?, 'unknown', ?, ?, 'queued', ?, ?, ?)
                """, arguments: [id, Data(sourceName), bytes, owner, now, now])
        }
    }

    public func deleteJob(id: String) throws(CatalogError) {
        try write { db in try db.execute(sql: "DELETE FROM jobs WHERE id = ?", arguments: [id]) }
    }

    /// Lets any worker claim a queued job.
    public func release(jobID: String, now: Int64) throws(CatalogError) {
        try write { db in
            try db.execute(sql: "UPDATE jobs SET owner = NULL, updated_at = ? WHERE id = ? AND state = 'queued'", arguments: [now, jobID])
        }
    }

    /// Atomically takes the oldest queued job that is due, for `owner`; nil when there is none. Two workers never
    /// get the same job: the UPDATE only matches while the job is still unowned and queued.
    public func claimNextJob(owner: String, now: Int64) throws(CatalogError) -> FeedJob? {
        try write { db in
            guard let id = try String.fetchOne(db, sql: """
                SELECT id FROM jobs WHERE state = 'queued' AND owner IS NULL AND not_before <= ?
                ORDER BY not_before, created_at LIMIT 1
                """, arguments: [now]) else { return nil }
            try db.execute(sql: """
                UPDATE jobs SET state = 'processing', owner = ?, attempts = attempts + 1, progress = 0, started_at = ?,
                                updated_at = ?
                WHERE id = ? AND state = 'queued' AND owner IS NULL
                """, arguments: [owner, now, now, id])
            guard db.changesCount == 1 else { return nil }
            return try Row.fetchOne(db, sql: "SELECT * FROM jobs WHERE id = ?", arguments: [id]).map(FeedJob.init(row:))
        }
    }

    public func setJobFacts(id: String, kind: FeedJob.Kind? = nil, contentHash: String? = nil, now: Int64) throws(CatalogError) {
        try write { db in
            try db.execute(sql: """
                UPDATE jobs SET kind = coalesce(?, kind), content_hash = coalesce(?, content_hash), updated_at = ? WHERE id = ?
                """, arguments: [kind?.rawValue, contentHash, now, id])
        }
    }

    public func setJobProgress(id: String, progress: Double, now: Int64) throws(CatalogError) {
        try write { db in
            try db.execute(sql: "UPDATE jobs SET progress = ?, updated_at = ? WHERE id = ? AND state = 'processing'",
                           arguments: [min(max(progress, 0), 1), now, id])
        }
    }

    /// Rejected (the upload is bad) or failed (Reel or the machine failed, and no attempt is left).
    public func finishJob(_ job: String, as error: ProcessingError, kind: FeedJob.Kind? = nil, now: Int64) throws(CatalogError) {
        try write { db in
            switch error {
            case let .rejected(rejection):
                try Self.finish(job: job, state: .rejected, kind: kind, mediaID: nil, reason: .rejected(rejection.reason),
                                message: rejection.message, now: now, db)
            case let .failed(failure):
                try Self.finish(job: job, state: .failed, kind: kind, mediaID: nil, reason: .failed(failure.reason),
                                message: failure.message, now: now, db)
            }
        }
    }

    /// Back to the queue after a transient failure (or an interrupted run), due again at `notBefore`. With
    /// `refundAttempt` the attempt does not count (the machine was at fault: shutdown, dead worker, full disk).
    public func requeue(_ job: String, notBefore: Int64, failure: ProcessingFailure?, refundAttempt: Bool = false,
                        now: Int64) throws(CatalogError) {
        try write { db in
            try db.execute(sql: """
                UPDATE jobs SET state = 'queued', owner = NULL, not_before = ?, reason = coalesce(?, reason),
                                last_error = coalesce(?, last_error), progress = 0, updated_at = ?,
                                attempts = max(0, attempts - ?)
                WHERE id = ?
                """, arguments: [notBefore, failure.map { JobReason.failed($0.reason).code }, failure?.message, now,
                                 refundAttempt ? 1 : 0, job])
        }
    }

    static func finish(job: String, state: FeedJob.State, kind: FeedJob.Kind?, mediaID: String?, reason: JobReason?,
                       message: String?, now: Int64, _ db: Database) throws {
        try db.execute(sql: """
            UPDATE jobs SET state = ?, kind = coalesce(?, kind), media_id = ?, reason = ?, last_error = ?,
                            progress = CASE WHEN ? = 'published' THEN 1 ELSE progress END,
                            owner = NULL, finished_at = ?, updated_at = ?
            WHERE id = ?
            """, arguments: [state.rawValue, kind?.rawValue, mediaID, reason?.code, message, state.rawValue, now, now, job])
    }

    public func jobs(state: FeedJob.State) throws(CatalogError) -> [FeedJob] {
        try read { db in
            try Row.fetchAll(db, sql: "SELECT * FROM jobs WHERE state = ? ORDER BY created_at", arguments: [state.rawValue])
                .map(FeedJob.init(row:))
        }
    }

    /// Jobs held by an owner: for recovery after that owner died, or after this one could not record an outcome.
    public func jobsHeld() throws(CatalogError) -> [FeedJob] {
        try read { db in try Row.fetchAll(db, sql: "SELECT * FROM jobs WHERE owner IS NOT NULL").map(FeedJob.init(row:)) }
    }

    public func jobCounts() throws(CatalogError) -> [FeedJob.State: Int] {
        try read { db in
            var counts: [FeedJob.State: Int] = [:]
            for row in try Row.fetchAll(db, sql: "SELECT state, count(*) AS n FROM jobs GROUP BY state") {
                if let state = FeedJob.State(rawValue: row["state"]) { counts[state] = row["n"] }
            }
            return counts
        }
    }
}

extension FeedJob {
    init(row: Row) {
        self.init(id: row["id"], kind: Kind(rawValue: row["kind"]) ?? .unknown, state: State(rawValue: row["state"]) ?? .queued,
                  attempts: row["attempts"], reason: (row["reason"] as String?).flatMap(JobReason.init(code:)),
                  lastError: row["last_error"], progress: row["progress"], createdAt: row["created_at"],
                  updatedAt: row["updated_at"], mediaID: row["media_id"])
        sourceName = (row["source_name"] as Data?).map { Array($0) } ?? []
        owner = row["owner"]
        contentHash = row["content_hash"]
    }
}
