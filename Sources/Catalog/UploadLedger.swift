/// Uploads over HTTP as the catalog records them: each one's acknowledged offset and expiry, and its hand-over to the
/// job queue (the job's id chosen first, then the queued job and the finished upload in one transaction).
package protocol UploadLedger: Sendable {
    /// Records a new upload unless its token is over `quota` (`UploadQuota.refusal`), in one transaction with the
    /// count of what the token holds, so two creations at once cannot both pass the last free slot.
    /// - Returns: nil when recorded, else why not (nothing was written).
    func createUpload(
        _ upload: UploadRecord, within quota: UploadQuota
    ) async throws(CatalogError)
        -> UploadQuota.Refusal?
    func upload(id: String) async throws(CatalogError) -> UploadRecord?
    func advanceUpload(
        id: String, from: Int64, to received: Int64, expiresAt: Int64,
        now: Int64
    ) async throws(CatalogError) -> Bool
    func deleteUpload(id: String) async throws(CatalogError)
    func expiredUploads(now: Int64) async throws(CatalogError) -> [UploadRecord]
    func assignUploadJob(id: String, jobID: String, now: Int64) async throws(CatalogError)
    /// The queued job, with the upload's `post`, and the finished upload in one transaction. A job already there
    /// (recovery found the file first) is kept, and takes `post` if it has none.
    func finishUpload(
        id: String, jobID: String, sourceName: [UInt8], bytes: Int64, post: PostFacts,
        now: Int64) async throws(CatalogError)
}

extension UploadLedger {
    /// Records a new upload with no quota to keep.
    package func createUpload(_ upload: UploadRecord) async throws(CatalogError) {
        _ = try await createUpload(upload, within: UploadQuota())
    }
}
