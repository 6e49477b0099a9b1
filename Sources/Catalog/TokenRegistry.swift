/// Who may upload: bearer tokens, kept as hashes, made and revoked by `reel token` and checked on every upload request.
package protocol TokenRegistry: Sendable {
    func createToken(_ token: UploadToken) async throws(CatalogError)
    func tokens() async throws(CatalogError) -> [UploadToken]
    func token(hash: String) async throws(CatalogError) -> UploadToken?
    func revokeToken(_ nameOrID: String, now: Int64) async throws(CatalogError) -> UploadToken?
    /// Sets the token's rate limit and quota (`reel token set`); returns it as stored, or nil when there is none.
    func setTokenLimits(
        _ nameOrID: String, rateLimit: Double?, quota: UploadQuota
    ) async throws(CatalogError) -> UploadToken?
}
