public import FeedStore
internal import PostgresNIO

/// Upload tokens, as `SQLiteFeedStore+Tokens` keeps them.
extension PostgresFeedStore {
    /// - Throws: `CatalogError` with kind `.duplicate` when the name (or hash) is taken.
    public func createToken(_ token: UploadToken) async throws(CatalogError) {
        _ = try await rows(
            "create upload token \(token.name)",
            """
            INSERT INTO upload_tokens (id, name, hash, rate_limit, created_at, revoked_at)
            VALUES (\(token.id), \(token.name), \(token.hash), \(token.rateLimit), \(token.createdAt), \(token.revokedAt))
            """)
    }

    public func tokens() async throws(CatalogError) -> [UploadToken] {
        let operation = "list the upload tokens"
        let rows = try await rows(operation, #"SELECT * FROM upload_tokens ORDER BY created_at, id COLLATE "C""#)
        return try Self.decode(operation) { try rows.map(Self.token(row:)) }
    }

    public func token(hash: String) async throws(CatalogError) -> UploadToken? {
        let operation = "look up an upload token by hash"
        let rows = try await rows(operation, "SELECT * FROM upload_tokens WHERE hash = \(hash)")
        return try Self.decode(operation) { try rows.first.map(Self.token(row:)) }
    }

    /// Revokes the token named `nameOrID` (by name first, then id); returns it, or nil when there is none.
    /// Revoking twice keeps the first time.
    public func revokeToken(_ nameOrID: String, now: Int64) async throws(CatalogError) -> UploadToken? {
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

    static func token(row: PostgresRandomAccessRow) throws -> UploadToken {
        UploadToken(
            id: try row.value("id"), name: try row.value("name"), hash: try row.value("hash"),
            rateLimit: try row.value("rate_limit"), createdAt: try row.value("created_at"),
            revokedAt: try row.value("revoked_at"))
    }
}
