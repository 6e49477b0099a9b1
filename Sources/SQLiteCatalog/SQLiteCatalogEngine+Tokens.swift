package import Catalog
internal import GRDB

/// Upload tokens: created, listed, revoked, and looked up by hash on every upload request.
extension SQLiteCatalogEngine {
    /// - Throws: `CatalogError` with kind `.duplicate` when the name is taken.
    package func createToken(_ token: UploadToken) async throws(CatalogError) {
        try await write { db in
            try db.execute(
                sql: """
                    INSERT INTO upload_tokens (id, name, hash, rate_limit, created_at, revoked_at, max_concurrent_uploads,
                                               max_bytes_in_flight, max_uploads_per_hour, admin)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                    """,
                arguments: [
                    token.id, token.name, token.hash, token.rateLimit, token.createdAt, token.revokedAt,
                    token.quota.concurrentUploads, token.quota.bytesInFlight, token.quota.uploadsPerHour,
                    token.isAdmin ? 1 : 0,
                ])
        }
    }

    package func tokens() async throws(CatalogError) -> [UploadToken] {
        try await read { db in
            try Row.fetchAll(db, sql: "SELECT * FROM upload_tokens ORDER BY created_at, id").map(Self.token(row:))
        }
    }

    /// The token with this SHA-256, revoked or not; nil when there is none.
    package func token(hash: String) async throws(CatalogError) -> UploadToken? {
        try await read { db in
            try Row.fetchOne(db, sql: "SELECT * FROM upload_tokens WHERE hash = ?", arguments: [hash]).map(
                Self.token(row:))
        }
    }

    /// Revokes the token named `nameOrID` (by name first, then id); returns it, or nil when there is none.
    /// Revoking twice keeps the first time.
    package func revokeToken(_ nameOrID: String, now: Int64) async throws(CatalogError) -> UploadToken? {
        try await write { db in
            guard
                let row = try Row.fetchOne(
                    db, sql: "SELECT * FROM upload_tokens WHERE name = ? OR id = ? ORDER BY name = ? DESC LIMIT 1",
                    arguments: [nameOrID, nameOrID, nameOrID])
            else { return nil }
            var token = Self.token(row: row)
            try db.execute(
                sql: "UPDATE upload_tokens SET revoked_at = coalesce(revoked_at, ?) WHERE id = ?",
                arguments: [now, token.id])
            token.revokedAt = token.revokedAt ?? now
            return token
        }
    }

    /// Sets the rate limit and the quota of the token named `nameOrID` (by name first, then id).
    package func setTokenLimits(
        _ nameOrID: String, rateLimit: Double?, quota: UploadQuota
    ) async throws(CatalogError) -> UploadToken? {
        try await write { db in
            guard
                let row = try Row.fetchOne(
                    db, sql: "SELECT * FROM upload_tokens WHERE name = ? OR id = ? ORDER BY name = ? DESC LIMIT 1",
                    arguments: [nameOrID, nameOrID, nameOrID])
            else { return nil }
            var token = Self.token(row: row)
            try db.execute(
                sql: """
                    UPDATE upload_tokens SET rate_limit = ?, max_concurrent_uploads = ?, max_bytes_in_flight = ?,
                                             max_uploads_per_hour = ?
                    WHERE id = ?
                    """,
                arguments: [
                    rateLimit, quota.concurrentUploads, quota.bytesInFlight, quota.uploadsPerHour, token.id,
                ])
            token.rateLimit = rateLimit
            token.quota = quota
            return token
        }
    }

    static func token(row: Row) -> UploadToken {
        UploadToken(
            id: row["id"], name: row["name"], hash: row["hash"], rateLimit: row["rate_limit"],
            createdAt: row["created_at"], revokedAt: row["revoked_at"],
            quota: UploadQuota(
                concurrentUploads: row["max_concurrent_uploads"], bytesInFlight: row["max_bytes_in_flight"],
                uploadsPerHour: row["max_uploads_per_hour"]),
            isAdmin: (row["admin"] as Int?) == 1)
    }
}
