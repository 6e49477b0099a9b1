package import Catalog
internal import Logging
package import MediaModel
internal import NIOCore
internal import PostgresNIO

/// The worker's job transitions, statement for statement those of `SQLiteCatalogEngine+Jobs`. Each is one transaction;
/// every transition of a held job proves its lease (`WHERE id AND epoch AND owner`) and changes nothing
/// (`leaseLost`, rolled back) once the lease is no longer the job's.
extension PostgresCatalogEngine {
    package func job(id: String) async throws(CatalogError) -> FeedJob? {
        let operation = "read job \(id)"
        let rows = try await rows(operation, "SELECT * FROM jobs WHERE id = \(id)")
        return try Self.decode(operation) { try rows.first.map(FeedJob.init(row:)) }
    }

    package func insertJob(
        id: String, sourceName: [UInt8], bytes: Int, post: PostFacts, owner: String, now: Int64,
        leaseMilliseconds: Int64
    ) async throws(CatalogError) {
        _ = try await rows(
            "insert job \(id) held by \(owner)",
            """
            INSERT INTO jobs (id, kind, source_name, source_bytes, state, owner, created_at, updated_at, lease_expires_at, post)
            VALUES (\(id), 'unknown', \(ByteBuffer.bytea(sourceName)), \(bytes), 'queued', \(owner), \(now), \(now), \(now + leaseMilliseconds),
                    \(post.column))
            """)
    }

    package func deleteJob(_ lease: JobLease) async throws(CatalogError) {
        try await fenced("delete", lease) { connection, logger in
            try await connection.count(
                """
                DELETE FROM jobs WHERE id = \(lease.id) AND epoch = \(lease.epoch) AND owner = \(lease.owner) RETURNING id
                """, logger: logger)
        }
    }

    package func release(_ lease: JobLease, now: Int64) async throws(CatalogError) {
        try await fenced("release", lease) { connection, logger in
            try await connection.count(
                """
                UPDATE jobs SET owner = NULL, lease_expires_at = NULL, updated_at = \(now)
                WHERE id = \(lease.id) AND epoch = \(lease.epoch) AND owner = \(lease.owner) AND state = 'queued' RETURNING id
                """, logger: logger)
        }
    }

    /// One statement: the oldest due queued job that no other transaction has locked, taken for `owner` with a raised
    /// epoch. Concurrent claimers skip each other's rows (`SKIP LOCKED`) instead of waiting, and never share a job.
    package func claimNextJob(
        owner: String, now: Int64, leaseMilliseconds: Int64
    ) async throws(CatalogError) -> FeedJob? {
        let operation = "claim a queued job for \(owner)"
        let rows = try await rows(
            operation,
            """
            UPDATE jobs SET state = 'processing', owner = \(owner), epoch = epoch + 1, lease_expires_at = \(now + leaseMilliseconds),
                            attempts = attempts + 1, progress = 0, started_at = \(now), updated_at = \(now)
            WHERE id = (SELECT id FROM jobs WHERE state = 'queued' AND owner IS NULL AND not_before <= \(now)
                        ORDER BY not_before, created_at LIMIT 1 FOR UPDATE SKIP LOCKED)
            RETURNING *
            """)
        return try Self.decode(operation) { try rows.first.map(FeedJob.init(row:)) }
    }

    package func renewLease(_ lease: JobLease, until: Int64, now: Int64) async throws(CatalogError) -> Bool {
        try await rows(
            "renew the lease of \(lease)",
            """
            UPDATE jobs SET lease_expires_at = \(until), updated_at = \(now)
            WHERE id = \(lease.id) AND epoch = \(lease.epoch) AND owner = \(lease.owner) AND state IN ('queued', 'processing')
            RETURNING id
            """
        ).count == 1
    }

    package func setJobFacts(
        _ lease: JobLease, kind: FeedJob.Kind?, contentHash: String?, now: Int64
    ) async throws(CatalogError) {
        try await fenced("set the facts of", lease) { connection, logger in
            try await connection.count(
                """
                UPDATE jobs SET kind = coalesce(\(kind?.rawValue), kind), content_hash = coalesce(\(contentHash), content_hash),
                                updated_at = \(now)
                WHERE id = \(lease.id) AND epoch = \(lease.epoch) AND owner = \(lease.owner) RETURNING id
                """, logger: logger)
        }
    }

    package func setJobProgress(_ lease: JobLease, progress: Double, now: Int64) async throws(CatalogError) {
        let progress = min(max(progress, 0), 1)
        try await fenced("set the progress of", lease) { connection, logger in
            try await connection.count(
                """
                UPDATE jobs SET progress = \(progress), updated_at = \(now)
                WHERE id = \(lease.id) AND epoch = \(lease.epoch) AND owner = \(lease.owner) AND state = 'processing' RETURNING id
                """, logger: logger)
        }
    }

    package func finishJob(
        _ lease: JobLease, as error: ProcessingError, kind: FeedJob.Kind?, now: Int64
    ) async throws(CatalogError) {
        try await fenced("finish", lease) { connection, logger in
            let changed: Int
            switch error {
            case let .rejected(rejection):
                // A post already playable (issue 64) whose upload is now refused leaves the feed with its verdict.
                if try await connection.count(
                    "DELETE FROM videos WHERE id = \(lease.id) AND stage = 'playable' RETURNING id", logger: logger) > 0
                {
                    try await connection.query(PostgresQuery(unsafeSQL: Self.bumpGenerationSQL), logger: logger)
                }
                changed = try await Self.finish(
                    lease, state: .rejected, kind: kind, mediaID: nil, reason: .rejected(rejection.reason),
                    message: rejection.message, now: now, connection, logger: logger)
            case let .failed(failure):
                changed = try await Self.finish(
                    lease, state: .failed, kind: kind, mediaID: nil, reason: .failed(failure.reason),
                    message: failure.message, now: now, connection, logger: logger)
            }
            // An image's verdict is not a video event; a job that never learnt its kind was meant to be a post.
            let stored = try await connection.rows("SELECT kind FROM jobs WHERE id = \(lease.id)", logger: logger)
                .first?.value("kind", as: String.self)
            if changed == 1, stored != FeedJob.Kind.image.rawValue {
                try await Self.enqueue(.verdict(error, jobID: lease.id, now: now), connection, logger: logger)
            }
            return changed
        }
    }

    package func requeue(
        _ lease: JobLease, notBefore: Int64, failure: ProcessingFailure?, refundAttempt: Bool,
        now: Int64
    ) async throws(CatalogError) {
        let reason = failure.map { JobReason.failed($0.reason).code }, message = failure?.message,
            refund = refundAttempt ? 1 : 0
        try await fenced("requeue", lease) { connection, logger in
            try await connection.count(
                """
                UPDATE jobs SET state = 'queued', owner = NULL, lease_expires_at = NULL, not_before = \(notBefore),
                                reason = coalesce(\(reason), reason), last_error = coalesce(\(message), last_error), progress = 0,
                                updated_at = \(now), attempts = greatest(0, attempts - \(refund))
                WHERE id = \(lease.id) AND epoch = \(lease.epoch) AND owner = \(lease.owner) RETURNING id
                """, logger: logger)
        }
    }

    /// Ends a held job; returns the rows it changed (1, or 0 when the lease is lost).
    static func finish(
        _ lease: JobLease, state: FeedJob.State, kind: FeedJob.Kind?, mediaID: String?, reason: JobReason?,
        message: String?, now: Int64, _ connection: PostgresConnection, logger: Logger
    ) async throws -> Int {
        try await connection.count(
            """
            UPDATE jobs SET state = \(state.rawValue), kind = coalesce(\(kind?.rawValue), kind),
                            media_id = CASE WHEN \(state.rawValue) = 'rejected' THEN NULL ELSE coalesce(\(mediaID), media_id) END,
                            reason = \(reason?.code), last_error = \(message),
                            progress = CASE WHEN \(state.rawValue) = 'published' THEN 1 ELSE progress END,
                            owner = NULL, lease_expires_at = NULL, finished_at = \(now), updated_at = \(now)
            WHERE id = \(lease.id) AND epoch = \(lease.epoch) AND owner = \(lease.owner) RETURNING id
            """, logger: logger)
    }

    /// A transaction whose statement must change exactly one row of the job: otherwise the lease was lost, and the
    /// transaction rolls back. `verb` names the transition in errors ("requeue job 7 at epoch 2 held by w1").
    func fenced(
        _ verb: String, _ lease: JobLease,
        _ statement: @escaping @Sendable (PostgresConnection, Logger) async throws -> Int
    ) async throws(CatalogError) {
        let logger = self.logger
        try await transaction("\(verb) \(lease)") { connection in
            guard try await statement(connection, logger) == 1 else {
                throw try await Self.leaseLost(lease, connection, logger: logger)
            }
        }
    }

    /// What became of a lease that no longer matches, for the error.
    static func leaseLost(
        _ lease: JobLease, _ connection: PostgresConnection, logger: Logger
    ) async throws -> CatalogError {
        guard
            let row = try await connection.rows(
                "SELECT state, epoch, owner FROM jobs WHERE id = \(lease.id)", logger: logger
            ).first
        else {
            return CatalogError(.leaseLost, "\(lease) is gone: the job no longer exists")
        }
        let state = try row.value("state", as: String.self), epoch = try row.value("epoch", as: Int64.self)
        let owner = try row.value("owner", as: String?.self)
        return CatalogError(
            .leaseLost,
            "\(lease) is no longer held: the job is \(state) at epoch \(epoch)"
                + (owner.map { ", held by \($0)" } ?? ", held by nobody"))
    }

    package func jobs(state: FeedJob.State) async throws(CatalogError) -> [FeedJob] {
        let operation = "list the \(state.rawValue) jobs"
        let rows = try await rows(operation, "SELECT * FROM jobs WHERE state = \(state.rawValue) ORDER BY created_at")
        return try Self.decode(operation) { try rows.map(FeedJob.init(row:)) }
    }

    package func jobsHeld() async throws(CatalogError) -> [FeedJob] {
        let operation = "list the held jobs"
        let rows = try await rows(operation, "SELECT * FROM jobs WHERE owner IS NOT NULL")
        return try Self.decode(operation) { try rows.map(FeedJob.init(row:)) }
    }

    package func jobCounts() async throws(CatalogError) -> [FeedJob.State: Int] {
        let operation = "count the jobs by state"
        let rows = try await rows(operation, "SELECT state, count(*) AS n FROM jobs GROUP BY state")
        return try Self.decode(operation) {
            var counts: [FeedJob.State: Int] = [:]
            for row in rows {
                if let state = FeedJob.State(rawValue: try row.value("state")) {
                    counts[state] = try row.value("n", as: Int.self)
                }
            }
            return counts
        }
    }
}

extension FeedJob {
    /// A `jobs` row (`SELECT *`), as `FeedJob.init(row:)` reads one on SQLite.
    init(row: PostgresRandomAccessRow) throws {
        self.init(
            id: try row.value("id"), kind: Kind(rawValue: try row.value("kind")) ?? .unknown,
            state: State(rawValue: try row.value("state")) ?? .queued, attempts: try row.value("attempts"),
            reason: try row.value("reason", as: String?.self).flatMap(JobReason.init(code:)),
            lastError: try row.value("last_error"), progress: try row.value("progress"),
            createdAt: try row.value("created_at"), updatedAt: try row.value("updated_at"),
            mediaID: try row.value("media_id"))
        sourceName = try row.bytes("source_name")
        owner = try row.value("owner")
        contentHash = try row.value("content_hash")
        epoch = try row.value("epoch")
        leaseExpiresAt = try row.value("lease_expires_at")
        post = PostFacts(column: try row.value("post", as: String?.self))
    }
}
