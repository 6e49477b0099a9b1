package import Catalog
internal import Foundation
internal import GRDB
package import MediaModel

/// The worker's job transitions. Each is one write transaction, so a crash leaves a job in exactly one state. Every
/// transition of a held job names its lease and changes nothing (`leaseLost`) once the lease is no longer the job's.
extension SQLiteCatalogEngine {
    /// One job by id, or nil.
    package func job(id: String) async throws(CatalogError) -> FeedJob? {
        try await read { db in
            try Row.fetchOne(db, sql: "SELECT * FROM jobs WHERE id = ?", arguments: [id]).map(FeedJob.init(row:))
        }
    }

    /// A new job for an upload this worker is about to move out of the inbox: queued and held by `owner` (epoch 0)
    /// until the move succeeds (then `release`) or fails because another worker won (then `deleteJob`).
    package func insertJob(
        id: String, sourceName: [UInt8], bytes: Int, post: PostFacts, owner: String, now: Int64,
        leaseMilliseconds: Int64
    ) async throws(CatalogError) {
        try await write { db in
            try db.execute(
                sql: """
                    INSERT INTO jobs (id, kind, source_name, source_bytes, state, owner, created_at, updated_at, lease_expires_at,
                                      post)
                    VALUES (?, 'unknown', ?, ?, 'queued', ?, ?, ?, ?, ?)
                    """,
                arguments: [id, Data(sourceName), bytes, owner, now, now, now + leaseMilliseconds, post.column])
        }
    }

    package func deleteJob(_ lease: JobLease) async throws(CatalogError) {
        try await fenced(lease) { db in
            try db.execute(
                sql: "DELETE FROM jobs WHERE id = ? AND epoch = ? AND owner = ?", arguments: Self.fence(lease))
        }
    }

    /// Lets any worker claim a queued job.
    package func release(_ lease: JobLease, now: Int64) async throws(CatalogError) {
        try await fenced(lease) { db in
            try db.execute(
                sql: """
                    UPDATE jobs SET owner = NULL, lease_expires_at = NULL, updated_at = ?
                    WHERE id = ? AND epoch = ? AND owner = ? AND state = 'queued'
                    """, arguments: [now] + Self.fence(lease))
        }
    }

    /// Atomically takes the oldest queued job that is due, for `owner`; nil when there is none. Two workers never
    /// get the same job: the UPDATE only matches while the job is still unowned and queued (SQLite has one writer).
    package func claimNextJob(
        owner: String, now: Int64, leaseMilliseconds: Int64
    ) async throws(CatalogError) -> FeedJob? {
        try await write { db in
            guard
                let id = try String.fetchOne(
                    db,
                    sql: """
                        SELECT id FROM jobs WHERE state = 'queued' AND owner IS NULL AND not_before <= ?
                        ORDER BY not_before, created_at LIMIT 1
                        """, arguments: [now])
            else { return nil }
            try db.execute(
                sql: """
                    UPDATE jobs SET state = 'processing', owner = ?, epoch = epoch + 1, lease_expires_at = ?,
                                    attempts = attempts + 1, progress = 0, started_at = ?, updated_at = ?
                    WHERE id = ? AND state = 'queued' AND owner IS NULL
                    """, arguments: [owner, now + leaseMilliseconds, now, now, id])
            guard db.changesCount == 1 else { return nil }
            return try Row.fetchOne(db, sql: "SELECT * FROM jobs WHERE id = ?", arguments: [id]).map(FeedJob.init(row:))
        }
    }

    package func renewLease(_ lease: JobLease, until: Int64, now: Int64) async throws(CatalogError) -> Bool {
        try await write { db in
            try db.execute(
                sql: """
                    UPDATE jobs SET lease_expires_at = ?, updated_at = ?
                    WHERE id = ? AND epoch = ? AND owner = ? AND state IN ('queued', 'processing')
                    """, arguments: [until, now] + Self.fence(lease))
            return db.changesCount == 1
        }
    }

    package func setJobFacts(
        _ lease: JobLease, kind: FeedJob.Kind?, contentHash: String?, now: Int64
    ) async throws(CatalogError) {
        try await fenced(lease) { db in
            try db.execute(
                sql: """
                    UPDATE jobs SET kind = coalesce(?, kind), content_hash = coalesce(?, content_hash), updated_at = ?
                    WHERE id = ? AND epoch = ? AND owner = ?
                    """, arguments: [kind?.rawValue, contentHash, now] + Self.fence(lease))
        }
    }

    package func setJobProgress(_ lease: JobLease, progress: Double, now: Int64) async throws(CatalogError) {
        try await fenced(lease) { db in
            try db.execute(
                sql: """
                    UPDATE jobs SET progress = ?, updated_at = ? WHERE id = ? AND epoch = ? AND owner = ? AND state = 'processing'
                    """, arguments: [min(max(progress, 0), 1), now] + Self.fence(lease))
        }
    }

    /// Rejected (the upload is bad) or failed (Reel or the machine failed, and no attempt is left).
    package func finishJob(
        _ lease: JobLease, as error: ProcessingError, kind: FeedJob.Kind?, now: Int64
    ) async throws(CatalogError) {
        try await write { db in
            switch error {
            case let .rejected(rejection):
                // A post already playable (issue 64) whose upload is now refused leaves the feed with its verdict.
                try db.execute(sql: "DELETE FROM videos WHERE id = ? AND stage = 'playable'", arguments: [lease.id])
                if db.changesCount > 0 { try Self.bumpGeneration(db) }
                try Self.finish(
                    lease, state: .rejected, kind: kind, mediaID: nil, reason: .rejected(rejection.reason),
                    message: rejection.message, now: now, db)
            case let .failed(failure):
                try Self.finish(
                    lease, state: .failed, kind: kind, mediaID: nil, reason: .failed(failure.reason),
                    message: failure.message, now: now, db)
            }
            guard db.changesCount == 1 else { throw try Self.leaseLost(lease, db) }
            // An image's verdict is not a video event; a job that never learnt its kind was meant to be a post.
            let stored = try String.fetchOne(db, sql: "SELECT kind FROM jobs WHERE id = ?", arguments: [lease.id])
            if stored != FeedJob.Kind.image.rawValue {
                try Self.enqueue(.verdict(error, jobID: lease.id, now: now), db)
            }
        }
    }

    /// Back to the queue after a transient failure (or an interrupted run, or an expired lease), due again at
    /// `notBefore`. With `refundAttempt` the attempt does not count (the machine was at fault: shutdown, dead worker,
    /// full disk).
    package func requeue(
        _ lease: JobLease, notBefore: Int64, failure: ProcessingFailure?, refundAttempt: Bool,
        now: Int64
    ) async throws(CatalogError) {
        try await fenced(lease) { db in
            try db.execute(
                sql: """
                    UPDATE jobs SET state = 'queued', owner = NULL, lease_expires_at = NULL, not_before = ?,
                                    reason = coalesce(?, reason), last_error = coalesce(?, last_error), progress = 0, updated_at = ?,
                                    attempts = max(0, attempts - ?)
                    WHERE id = ? AND epoch = ? AND owner = ?
                    """,
                arguments: [
                    notBefore, failure.map { JobReason.failed($0.reason).code }, failure?.message, now,
                    refundAttempt ? 1 : 0,
                ] + Self.fence(lease))
        }
    }

    static func finish(
        _ lease: JobLease, state: FeedJob.State, kind: FeedJob.Kind?, mediaID: String?, reason: JobReason?,
        message: String?, now: Int64, _ db: Database
    ) throws {
        try db.execute(
            sql: """
                UPDATE jobs SET state = ?, kind = coalesce(?, kind),
                                media_id = CASE WHEN ? = 'rejected' THEN NULL ELSE coalesce(?, media_id) END,
                                reason = ?, last_error = ?,
                                progress = CASE WHEN ? = 'published' THEN 1 ELSE progress END,
                                owner = NULL, lease_expires_at = NULL, finished_at = ?, updated_at = ?
                WHERE id = ? AND epoch = ? AND owner = ?
                """,
            arguments: [
                state.rawValue, kind?.rawValue, state.rawValue, mediaID, reason?.code, message, state.rawValue, now,
                now,
            ]
                + fence(lease))
    }

    /// A write whose last statement must change exactly one row of the job: otherwise the lease was lost, and the
    /// transaction rolls back.
    func fenced(_ lease: JobLease, _ body: @Sendable (Database) throws -> Void) async throws(CatalogError) {
        try await write { db in
            try body(db)
            guard db.changesCount == 1 else { throw try Self.leaseLost(lease, db) }
        }
    }

    static func fence(_ lease: JobLease) -> StatementArguments { [lease.id, lease.epoch, lease.owner] }

    /// What became of a lease that no longer matches, for the error.
    static func leaseLost(_ lease: JobLease, _ db: Database) throws -> CatalogError {
        guard
            let row = try Row.fetchOne(
                db, sql: "SELECT state, epoch, owner FROM jobs WHERE id = ?", arguments: [lease.id])
        else {
            return CatalogError(.leaseLost, "\(lease) is gone: the job no longer exists")
        }
        let state: String = row["state"], epoch: Int64 = row["epoch"], owner: String? = row["owner"]
        return CatalogError(
            .leaseLost,
            "\(lease) is no longer held: the job is \(state) at epoch \(epoch)"
                + (owner.map { ", held by \($0)" } ?? ", held by nobody"))
    }

    package func jobs(state: FeedJob.State) async throws(CatalogError) -> [FeedJob] {
        try await read { db in
            try Row.fetchAll(
                db, sql: "SELECT * FROM jobs WHERE state = ? ORDER BY created_at", arguments: [state.rawValue]
            )
            .map(FeedJob.init(row:))
        }
    }

    /// Jobs held by an owner: for recovery after that owner died or its lease expired, or after this one could not
    /// record an outcome.
    package func jobsHeld() async throws(CatalogError) -> [FeedJob] {
        try await read { db in
            try Row.fetchAll(db, sql: "SELECT * FROM jobs WHERE owner IS NOT NULL").map(FeedJob.init(row:))
        }
    }

    package func jobCounts() async throws(CatalogError) -> [FeedJob.State: Int] {
        try await read { db in
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
        self.init(
            id: row["id"], kind: Kind(rawValue: row["kind"]) ?? .unknown,
            state: State(rawValue: row["state"]) ?? .queued,
            attempts: row["attempts"], reason: (row["reason"] as String?).flatMap(JobReason.init(code:)),
            lastError: row["last_error"], progress: row["progress"], createdAt: row["created_at"],
            updatedAt: row["updated_at"], mediaID: row["media_id"])
        sourceName = (row["source_name"] as Data?).map { Array($0) } ?? []
        owner = row["owner"]
        contentHash = row["content_hash"]
        epoch = row["epoch"] ?? 0
        leaseExpiresAt = row["lease_expires_at"]
        post = PostFacts(column: row["post"])
    }
}
