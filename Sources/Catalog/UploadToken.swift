/// Who may upload: a named bearer token. The catalog keeps the token's SHA-256, never the token.
public struct UploadToken: Sendable, Equatable {
    public var id: String
    public var name: String
    /// Lowercase hex SHA-256 of the token.
    public var hash: String
    /// Requests per second for this token's uploads, or nil for no limit.
    public var rateLimit: Double?
    public var createdAt: Int64
    public var revokedAt: Int64?
    /// The token's own upload quota; each nil limit is the server's default (`reel serve --upload-...`).
    public var quota: UploadQuota

    public init(
        id: String, name: String, hash: String, rateLimit: Double?, createdAt: Int64, revokedAt: Int64? = nil,
        quota: UploadQuota = UploadQuota()
    ) {
        self.id = id
        self.name = name
        self.hash = hash
        self.rateLimit = rateLimit
        self.createdAt = createdAt
        self.revokedAt = revokedAt
        self.quota = quota
    }

    public var isRevoked: Bool { revokedAt != nil }
}
