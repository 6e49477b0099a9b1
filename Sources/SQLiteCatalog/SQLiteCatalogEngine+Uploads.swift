package import Catalog
internal import Foundation
internal import GRDB

/// Uploads over HTTP: each one's acknowledged offset, and the hand-over of a finished upload to the job queue.
extension SQLiteCatalogEngine {
    /// Counts what the token holds and records the upload in one write transaction (SQLite has one writer at a time).
    package func createUpload(
        _ upload: UploadRecord, within quota: UploadQuota
    ) async throws(CatalogError) -> UploadQuota.Refusal? {
        try await write { db in
            let usage = try Self.quotaUsage(db, tokenID: upload.tokenID, now: upload.createdAt)
            if let refusal = quota.refusal(forLength: upload.length, usage: usage, now: upload.createdAt) {
                return refusal
            }
            try db.execute(
                sql: """
                    INSERT INTO uploads (id, token_id, length, received, metadata, filename, created_at, updated_at, expires_at,
                                         post)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                    """,
                arguments: [
                    upload.id, upload.tokenID, upload.length, upload.received, upload.metadata, Data(upload.filename),
                    upload.createdAt, upload.updatedAt, upload.expiresAt, upload.post.column,
                ])
            let window = usage.window(afterOneMoreAt: upload.createdAt)
            try db.execute(
                sql: "UPDATE upload_tokens SET hour_started_at = ?, hour_uploads = ? WHERE id = ?",
                arguments: [window.startedAt, window.uploads, upload.tokenID])
            return nil
        }
    }

    /// The token's unfinished, unexpired uploads and its hour window, as of `now`.
    static func quotaUsage(_ db: Database, tokenID: String, now: Int64) throws -> UploadQuota.Usage {
        let open = try Row.fetchOne(
            db,
            sql: """
                SELECT count(*) AS uploads, coalesce(sum(length), 0) AS bytes, min(expires_at) AS expiry FROM uploads
                WHERE token_id = ? AND finished_at IS NULL AND job_id IS NULL AND expires_at > ?
                """, arguments: [tokenID, now])
        let window = try Row.fetchOne(
            db, sql: "SELECT hour_started_at, hour_uploads FROM upload_tokens WHERE id = ?", arguments: [tokenID])
        return UploadQuota.Usage(
            openUploads: open?["uploads"] ?? 0, openBytes: open?["bytes"] ?? 0, earliestExpiry: open?["expiry"],
            hourStartedAt: window?["hour_started_at"], hourUploads: window?["hour_uploads"] ?? 0)
    }

    package func upload(id: String) async throws(CatalogError) -> UploadRecord? {
        try await read { db in
            try Row.fetchOne(db, sql: "SELECT * FROM uploads WHERE id = ?", arguments: [id]).map(Self.upload(row:))
        }
    }

    /// Records a new acknowledged offset, only if the upload is still at `from` (two PATCHes racing cannot both win).
    /// - Returns: whether it was recorded.
    package func advanceUpload(
        id: String, from: Int64, to received: Int64, expiresAt: Int64, now: Int64
    ) async throws(CatalogError) -> Bool {
        try await write { db in
            try db.execute(
                sql: """
                    UPDATE uploads SET received = ?, updated_at = ?, expires_at = ?
                    WHERE id = ? AND received = ? AND job_id IS NULL
                    """, arguments: [received, now, expiresAt, id, from])
            return db.changesCount == 1
        }
    }

    package func deleteUpload(id: String) async throws(CatalogError) {
        try await write { db in try db.execute(sql: "DELETE FROM uploads WHERE id = ?", arguments: [id]) }
    }

    /// Unfinished uploads whose expiry has passed.
    package func expiredUploads(now: Int64) async throws(CatalogError) -> [UploadRecord] {
        try await read { db in
            try Row.fetchAll(
                db, sql: "SELECT * FROM uploads WHERE finished_at IS NULL AND job_id IS NULL AND expires_at <= ?",
                arguments: [now]
            ).map(Self.upload(row:))
        }
    }

    /// Step one of the hand-over: the job's id is chosen and kept before the file moves, so a crash after the move
    /// still leads to that job (the worker's recovery gives an orphaned file in `.incoming/` a job with its name).
    package func assignUploadJob(id: String, jobID: String, now: Int64) async throws(CatalogError) {
        try await write { db in
            try db.execute(
                sql: "UPDATE uploads SET job_id = coalesce(job_id, ?), updated_at = ? WHERE id = ?",
                arguments: [jobID, now, id])
        }
    }

    /// Step two, after the file is in `.incoming/<job>`: the queued job and the finished upload, in one transaction.
    /// A job already there (the worker's recovery made it first) is kept, and takes the post's facts if it has none.
    package func finishUpload(
        id: String, jobID: String, sourceName: [UInt8], bytes: Int64, post: PostFacts, now: Int64
    ) async throws(CatalogError) {
        try await write { db in
            try db.execute(
                sql: """
                    INSERT INTO jobs (id, kind, source_name, source_bytes, state, owner, created_at, updated_at, post)
                    VALUES (?, 'unknown', ?, ?, 'queued', NULL, ?, ?, ?)
                    ON CONFLICT(id) DO UPDATE SET post = coalesce(jobs.post, excluded.post)
                    """, arguments: [jobID, Data(sourceName), bytes, now, now, post.column])
            try db.execute(
                sql: "UPDATE uploads SET finished_at = coalesce(finished_at, ?), updated_at = ? WHERE id = ?",
                arguments: [now, now, id])
        }
    }

    static func upload(row: Row) -> UploadRecord {
        UploadRecord(
            id: row["id"], tokenID: row["token_id"], length: row["length"], received: row["received"],
            metadata: row["metadata"], filename: [UInt8]((row["filename"] as Data?) ?? Data()),
            createdAt: row["created_at"], updatedAt: row["updated_at"], expiresAt: row["expires_at"],
            jobID: row["job_id"], finishedAt: row["finished_at"], post: PostFacts(column: row["post"]))
    }
}
