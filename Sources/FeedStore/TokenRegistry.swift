/// Who may upload: bearer tokens, kept as hashes, made and revoked by `reel token` and checked on every upload request.
public protocol TokenRegistry: Sendable {
    func createToken(_ token: UploadToken) async throws(CatalogError)
    func tokens() async throws(CatalogError) -> [UploadToken]
    func token(hash: String) async throws(CatalogError) -> UploadToken?
    func revokeToken(_ nameOrID: String, now: Int64) async throws(CatalogError) -> UploadToken?
}
