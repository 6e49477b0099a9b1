public import GRDB
internal import Foundation

/// The worker's job transitions. Each is one write transaction, so a crash leaves a job in exactly one state.
extension FeedStore {
    /// A new job for an upload this worker is about to move out of the inbox: queued and held by `owner` until the
    /// move succeeds (then `release`) or fails because another worker won (then `deleteJob`).
    public func insertJob(id: String, sourceName: [UInt8], bytes: Int, owner: String, now: Int64) throws {
        try database.pool.write { db in
            try db.execute(sql: """
                INSERT INTO jobs (id, kind, source_name, source_bytes, state, owner, created_at, updated_at)
                VALUES (?, 'unknown', ?, ?, 'queued', ?, ?, ?)
                """, arguments: [id, Data(sourceName), bytes, owner, now, now])
        }
    }

    public func deleteJob(id: String) throws {
        try database.pool.write { db in try db.execute(sql: "DELETE FROM jobs WHERE id = ?", arguments: [id]) }
    }

    /// Lets any worker claim a queued job.
    public func release(jobID: String, now: Int64) throws {
        try database.pool.write { db in
            try db.execute(sql: "UPDATE jobs SET owner = NULL, updated_at = ? WHERE id = ? AND state = 'queued'", arguments: [now, jobID])
        }
    }

    /// Atomically takes the oldest queued job that is due, for `owner`; nil when there is none. Two workers never
    /// get the same job: the UPDATE only matches while the job is still unowned and queued.
    public func claimNextJob(owner: String, now: Int64) throws -> FeedJob? {
        try database.pool.write { db in
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

    public func setJobFacts(id: String, kind: FeedJob.Kind? = nil, contentHash: String? = nil, now: Int64) throws {
        try database.pool.write { db in
            try db.execute(sql: """
                UPDATE jobs SET kind = coalesce(?, kind), content_hash = coalesce(?, content_hash), updated_at = ? WHERE id = ?
                """, arguments: [kind?.rawValue, contentHash, now, id])
        }
    }

    public func setJobProgress(id: String, progress: Double, now: Int64) throws {
        try database.pool.write { db in
            try db.execute(sql: "UPDATE jobs SET progress = ?, updated_at = ? WHERE id = ? AND state = 'processing'",
                           arguments: [min(max(progress, 0), 1), now, id])
        }
    }

    /// The video row, its renditions and the job's `published` state in one transaction.
    public func publish(_ video: PublishedVideo, job: String, now: Int64) throws {
        try database.pool.write { db in
            try insert(video, db)
            try finish(job: job, state: .published, kind: .video, mediaID: video.id, reason: nil, message: nil, now: now, db)
        }
    }

    public func publish(_ image: PublishedImage, job: String, now: Int64) throws {
        try database.pool.write { db in
            try db.execute(sql: """
                INSERT INTO images (id, created_at, width, height, bytes, path, content_hash) VALUES (?, ?, ?, ?, ?, ?, ?)
                """, arguments: [image.id, image.createdAt, image.width, image.height, image.bytes, image.path, image.contentHash])
            try finish(job: job, state: .published, kind: .image, mediaID: image.id, reason: nil, message: nil, now: now, db)
        }
    }

    /// A byte-identical upload of something already published: the job points at the existing media.
    public func finishDuplicate(job: String, of media: (kind: FeedJob.Kind, id: String), now: Int64) throws {
        try database.pool.write { db in
            try finish(job: job, state: .published, kind: media.kind, mediaID: media.id, reason: "duplicate",
                       message: "byte-identical to the already published \(media.kind.rawValue) \(media.id)", now: now, db)
        }
    }

    /// Rejected (the upload broke a rule, crashed or hung a decoder) or failed (out of attempts).
    public func finishJob(_ job: String, state: FeedJob.State, reason: String, message: String, now: Int64) throws {
        precondition(state == .rejected || state == .failed)
        try database.pool.write { db in
            try finish(job: job, state: state, kind: nil, mediaID: nil, reason: reason, message: message, now: now, db)
        }
    }

    /// Back to the queue after a transient failure (or an interrupted run), due again at `notBefore`.
    public func requeue(_ job: String, notBefore: Int64, reason: String?, message: String?, refundAttempt: Bool = false, now: Int64) throws {
        try database.pool.write { db in
            try db.execute(sql: """
                UPDATE jobs SET state = 'queued', owner = NULL, not_before = ?, reason = coalesce(?, reason),
                                last_error = coalesce(?, last_error), progress = 0, updated_at = ?,
                                attempts = attempts - ?
                WHERE id = ?
                """, arguments: [notBefore, reason, message, now, refundAttempt ? 1 : 0, job])
        }
    }

    private func finish(job: String, state: FeedJob.State, kind: FeedJob.Kind?, mediaID: String?, reason: String?,
                        message: String?, now: Int64, _ db: Database) throws {
        try db.execute(sql: """
            UPDATE jobs SET state = ?, kind = coalesce(?, kind), media_id = ?, reason = ?, last_error = ?,
                            progress = CASE WHEN ? = 'published' THEN 1 ELSE progress END,
                            owner = NULL, finished_at = ?, updated_at = ?
            WHERE id = ?
            """, arguments: [state.rawValue, kind?.rawValue, mediaID, reason, message, state.rawValue, now, now, job])
    }

    /// The published video or image with these bytes, if any.
    public func publishedMedia(contentHash: String) throws -> (kind: FeedJob.Kind, id: String)? {
        try database.pool.read { db in
            if let id = try String.fetchOne(db, sql: "SELECT id FROM videos WHERE content_hash = ?", arguments: [contentHash]) {
                return (.video, id)
            }
            if let id = try String.fetchOne(db, sql: "SELECT id FROM images WHERE content_hash = ?", arguments: [contentHash]) {
                return (.image, id)
            }
            return nil
        }
    }

    public func jobs(state: FeedJob.State) throws -> [FeedJob] {
        try database.pool.read { db in
            try Row.fetchAll(db, sql: "SELECT * FROM jobs WHERE state = ? ORDER BY created_at", arguments: [state.rawValue])
                .map(FeedJob.init(row:))
        }
    }

    /// Jobs held by an owner: for recovery after that owner died.
    public func jobsHeld() throws -> [FeedJob] {
        try database.pool.read { db in
            try Row.fetchAll(db, sql: "SELECT * FROM jobs WHERE owner IS NOT NULL").map(FeedJob.init(row:))
        }
    }

    public func jobCounts() throws -> [FeedJob.State: Int] {
        try database.pool.read { db in
            var counts: [FeedJob.State: Int] = [:]
            for row in try Row.fetchAll(db, sql: "SELECT state, count(*) AS n FROM jobs GROUP BY state") {
                if let state = FeedJob.State(rawValue: row["state"]) { counts[state] = row["n"] }
            }
            return counts
        }
    }

    public func isPublished(videoID: String) throws -> Bool {
        try database.pool.read { db in
            try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM videos WHERE id = ?)", arguments: [videoID]) ?? false
        }
    }
}

/// A chat image whose WebP is in place in the library.
public struct PublishedImage: Sendable, Equatable {
    public var id: String
    public var createdAt: Int64
    public var width: Int
    public var height: Int
    public var bytes: Int
    public var path: String
    public var contentHash: String

    public init(id: String, createdAt: Int64, width: Int, height: Int, bytes: Int, path: String, contentHash: String) {
        self.id = id
        self.createdAt = createdAt
        self.width = width
        self.height = height
        self.bytes = bytes
        self.path = path
        self.contentHash = contentHash
    }
}
