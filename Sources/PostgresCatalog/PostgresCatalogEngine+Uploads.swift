package import Catalog
internal import NIOCore
internal import PostgresNIO

/// Uploads over HTTP, as `SQLiteCatalogEngine+Uploads` records them: each one's acknowledged offset, and the hand-over of
/// a finished upload to the job queue.
extension PostgresCatalogEngine {
    /// Locks the token's row, counts what it holds and records the upload in one transaction: creations for one token
    /// take turns, so two cannot both pass the last free slot.
    package func createUpload(
        _ upload: UploadRecord, within quota: UploadQuota
    ) async throws(CatalogError) -> UploadQuota.Refusal? {
        let logger = self.logger
        return try await transaction("create upload \(upload.id)") { connection in
            let window = try await connection.rows(
                "SELECT hour_started_at, hour_uploads FROM upload_tokens WHERE id = \(upload.tokenID) FOR UPDATE",
                logger: logger
            ).first
            let open = try await connection.rows(
                """
                SELECT count(*) AS uploads, coalesce(sum(length), 0)::bigint AS bytes, min(expires_at) AS expiry
                FROM uploads
                WHERE token_id = \(upload.tokenID) AND finished_at IS NULL AND job_id IS NULL AND expires_at > \(upload.createdAt)
                """, logger: logger
            ).first
            let usage = UploadQuota.Usage(
                openUploads: try open.map { Int(try $0.value("uploads", as: Int64.self)) } ?? 0,
                openBytes: try open?.value("bytes", as: Int64.self) ?? 0,
                earliestExpiry: try open?.value("expiry", as: Int64?.self),
                hourStartedAt: try window?.value("hour_started_at", as: Int64?.self),
                hourUploads: try window.map { Int(try $0.value("hour_uploads", as: Int64.self)) } ?? 0)
            if let refusal = quota.refusal(forLength: upload.length, usage: usage, now: upload.createdAt) {
                return refusal
            }
            try await connection.query(
                """
                INSERT INTO uploads (id, token_id, length, received, metadata, filename, created_at, updated_at, expires_at,
                                     post)
                VALUES (\(upload.id), \(upload.tokenID), \(upload.length), \(upload.received), \(upload.metadata),
                        \(ByteBuffer.bytea(upload.filename)), \(upload.createdAt), \(upload.updatedAt), \(upload.expiresAt),
                        \(upload.post.column))
                """, logger: logger)
            let next = usage.window(afterOneMoreAt: upload.createdAt)
            try await connection.query(
                """
                UPDATE upload_tokens SET hour_started_at = \(next.startedAt), hour_uploads = \(Int64(next.uploads))
                WHERE id = \(upload.tokenID)
                """, logger: logger)
            return nil
        }
    }

    package func upload(id: String) async throws(CatalogError) -> UploadRecord? {
        let operation = "read upload \(id)"
        let rows = try await rows(operation, "SELECT * FROM uploads WHERE id = \(id)")
        return try Self.decode(operation) { try rows.first.map(Self.upload(row:)) }
    }

    /// Records a new acknowledged offset, only if the upload is still at `from` (two PATCHes racing cannot both win).
    /// - Returns: whether it was recorded.
    package func advanceUpload(
        id: String, from: Int64, to received: Int64, expiresAt: Int64, now: Int64
    ) async throws(CatalogError) -> Bool {
        try await rows(
            "advance upload \(id) from \(from) to \(received)",
            """
            UPDATE uploads SET received = \(received), updated_at = \(now), expires_at = \(expiresAt)
            WHERE id = \(id) AND received = \(from) AND job_id IS NULL RETURNING id
            """
        ).count == 1
    }

    package func deleteUpload(id: String) async throws(CatalogError) {
        _ = try await rows("delete upload \(id)", "DELETE FROM uploads WHERE id = \(id)")
    }

    package func expiredUploads(now: Int64) async throws(CatalogError) -> [UploadRecord] {
        let operation = "list the uploads expired at \(now)"
        let rows = try await rows(
            operation,
            """
            SELECT * FROM uploads WHERE finished_at IS NULL AND job_id IS NULL AND expires_at <= \(now)
            """)
        return try Self.decode(operation) { try rows.map(Self.upload(row:)) }
    }

    /// Step one of the hand-over: the job's id is chosen and kept before the file moves.
    package func assignUploadJob(id: String, jobID: String, now: Int64) async throws(CatalogError) {
        _ = try await rows(
            "assign job \(jobID) to upload \(id)",
            """
            UPDATE uploads SET job_id = coalesce(job_id, \(jobID)), updated_at = \(now) WHERE id = \(id)
            """)
    }

    /// Step two, after the file is in `.incoming/<job>`: the queued job and the finished upload, in one transaction.
    /// A job already there (the worker's recovery made it first) is kept, and takes the post's facts if it has none.
    package func finishUpload(
        id: String, jobID: String, sourceName: [UInt8], bytes: Int64, post: PostFacts, now: Int64
    ) async throws(CatalogError) {
        let logger = self.logger
        try await transaction("finish upload \(id) as job \(jobID)") { connection in
            try await connection.query(
                """
                INSERT INTO jobs (id, kind, source_name, source_bytes, state, owner, created_at, updated_at, post)
                VALUES (\(jobID), 'unknown', \(ByteBuffer.bytea(sourceName)), \(bytes), 'queued', NULL, \(now), \(now),
                        \(post.column))
                ON CONFLICT (id) DO UPDATE SET post = coalesce(jobs.post, excluded.post)
                """, logger: logger)
            try await connection.query(
                """
                UPDATE uploads SET finished_at = coalesce(finished_at, \(now)), updated_at = \(now) WHERE id = \(id)
                """, logger: logger)
        }
    }

    static func upload(row: PostgresRandomAccessRow) throws -> UploadRecord {
        UploadRecord(
            id: try row.value("id"), tokenID: try row.value("token_id"), length: try row.value("length"),
            received: try row.value("received"), metadata: try row.value("metadata"),
            filename: try row.bytes("filename"),
            createdAt: try row.value("created_at"), updatedAt: try row.value("updated_at"),
            expiresAt: try row.value("expires_at"), jobID: try row.value("job_id"),
            finishedAt: try row.value("finished_at"), post: PostFacts(column: try row.value("post", as: String?.self)))
    }
}
