package import Catalog
internal import PostgresNIO

/// Upload tokens, as `SQLiteCatalogEngine+Tokens` keeps them.
extension PostgresCatalogEngine {
    /// - Throws: `CatalogError` with kind `.duplicate` when the name (or hash) is taken.
    package func createToken(_ token: UploadToken) async throws(CatalogError) {
        _ = try await rows(
            "create upload token \(token.name)",
            """
            INSERT INTO upload_tokens (id, name, hash, rate_limit, created_at, revoked_at, max_concurrent_uploads,
                                       max_bytes_in_flight, max_uploads_per_hour, admin)
            VALUES (\(token.id), \(token.name), \(token.hash), \(token.rateLimit), \(token.createdAt), \(token.revokedAt),
                    \(token.quota.concurrentUploads.map(Int64.init)), \(token.quota.bytesInFlight),
                    \(token.quota.uploadsPerHour.map(Int64.init)), \(Int64(token.isAdmin ? 1 : 0)))
            """)
    }

    package func tokens() async throws(CatalogError) -> [UploadToken] {
        let operation = "list the upload tokens"
        let rows = try await rows(operation, #"SELECT * FROM upload_tokens ORDER BY created_at, id COLLATE "C""#)
        return try Self.decode(operation) { try rows.map(Self.token(row:)) }
    }

    package func token(hash: String) async throws(CatalogError) -> UploadToken? {
        let operation = "look up an upload token by hash"
        let rows = try await rows(operation, "SELECT * FROM upload_tokens WHERE hash = \(hash)")
        return try Self.decode(operation) { try rows.first.map(Self.token(row:)) }
    }

    /// Revokes the token named `nameOrID` (by name first, then id); returns it, or nil when there is none.
    /// Revoking twice keeps the first time.
    package func revokeToken(_ nameOrID: String, now: Int64) async throws(CatalogError) -> UploadToken? {
        let logger = self.logger
        return try await transaction("revoke upload token \(nameOrID)") { connection in
            guard
                let row = try await connection.rows(
                    """
                    SELECT * FROM upload_tokens WHERE name = \(nameOrID) OR id = \(nameOrID) ORDER BY name = \(nameOrID) DESC LIMIT 1
                    """, logger: logger
                ).first
            else { return nil }
            var token = try Self.token(row: row)
            try await connection.query(
                "UPDATE upload_tokens SET revoked_at = coalesce(revoked_at, \(now)) WHERE id = \(token.id)",
                logger: logger)
            token.revokedAt = token.revokedAt ?? now
            return token
        }
    }

    /// Sets the rate limit and the quota of the token named `nameOrID` (by name first, then id).
    package func setTokenLimits(
        _ nameOrID: String, rateLimit: Double?, quota: UploadQuota
    ) async throws(CatalogError) -> UploadToken? {
        let operation = "set the limits of upload token \(nameOrID)"
        let rows = try await rows(
            operation,
            """
            UPDATE upload_tokens SET rate_limit = \(rateLimit),
                max_concurrent_uploads = \(quota.concurrentUploads.map(Int64.init)),
                max_bytes_in_flight = \(quota.bytesInFlight), max_uploads_per_hour = \(quota.uploadsPerHour.map(Int64.init))
            WHERE id = (SELECT id FROM upload_tokens WHERE name = \(nameOrID) OR id = \(nameOrID)
                        ORDER BY name = \(nameOrID) DESC LIMIT 1)
            RETURNING *
            """)
        return try Self.decode(operation) { try rows.first.map(Self.token(row:)) }
    }

    static func token(row: PostgresRandomAccessRow) throws -> UploadToken {
        UploadToken(
            id: try row.value("id"), name: try row.value("name"), hash: try row.value("hash"),
            rateLimit: try row.value("rate_limit"), createdAt: try row.value("created_at"),
            revokedAt: try row.value("revoked_at"),
            quota: UploadQuota(
                concurrentUploads: try row.value("max_concurrent_uploads", as: Int64?.self).map { Int($0) },
                bytesInFlight: try row.value("max_bytes_in_flight"),
                uploadsPerHour: try row.value("max_uploads_per_hour", as: Int64?.self).map { Int($0) }),
            isAdmin: try row.value("admin", as: Int64.self) == 1)
    }
}
