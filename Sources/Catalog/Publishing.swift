/// Making a job's media visible, and telling what is already published (duplicates are found by their bytes). Every
/// write is fenced by the job's lease (see `JobQueue`): a worker whose lease was taken over publishes nothing.
package protocol Publishing: Sendable {
    /// The video row(s) and the job's `published` state in one transaction, only while `lease` is held.
    func publish(_ video: PublishedVideo, lease: JobLease, now: Int64) async throws(CatalogError)
    func publish(_ image: PublishedImage, lease: JobLease, now: Int64) async throws(CatalogError)
    /// A byte-identical upload of something already published: the job points at the existing media.
    func finishDuplicate(_ lease: JobLease, of media: PublishedMedia, now: Int64) async throws(CatalogError)
    func publishedMedia(contentHash: String) async throws(CatalogError) -> PublishedMedia?
    func isPublished(mediaID: String) async throws(CatalogError) -> Bool
}
