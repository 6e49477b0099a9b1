/// Who may upload: a named bearer token. The catalog keeps the token's SHA-256, never the token.
package struct UploadToken: Sendable, Equatable {
    package var id: String
    package var name: String
    /// Lowercase hex SHA-256 of the token.
    package var hash: String
    /// Requests per second for this token's uploads, or nil for no limit.
    package var rateLimit: Double?
    package var createdAt: Int64
    package var revokedAt: Int64?
    /// The token's own upload quota; each nil limit is the server's default (`reel serve --upload-...`).
    package var quota: UploadQuota
    /// An operator's token (`reel token create --admin`): it may delete any post, not only its own uploads.
    package var isAdmin: Bool

    package init(
        id: String, name: String, hash: String, rateLimit: Double?, createdAt: Int64, revokedAt: Int64? = nil,
        quota: UploadQuota = UploadQuota(), isAdmin: Bool = false
    ) {
        self.id = id
        self.name = name
        self.hash = hash
        self.rateLimit = rateLimit
        self.createdAt = createdAt
        self.revokedAt = revokedAt
        self.quota = quota
        self.isAdmin = isAdmin
    }

    package var isRevoked: Bool { revokedAt != nil }
}
