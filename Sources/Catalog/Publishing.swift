/// Making a job's media visible, and telling what is already published (duplicates are found by their bytes). Every
/// write is fenced by the job's lease (see `JobQueue`): a worker whose lease was taken over publishes nothing.
package protocol Publishing: Sendable {
    /// The video row(s) and the job's `published` state in one transaction, only while `lease` is held. A `playable`
    /// row of the same video is replaced, keeping its place in the feed (its `published_at`).
    func publish(_ video: PublishedVideo, lease: JobLease, now: Int64) async throws(CatalogError)
    /// A provisional rendition in the feed while the ladder is made (issue 64): the video row in stage `playable`
    /// and the job's `media_id`, in one transaction, only while `lease` is held and the job is processing. A
    /// `playable` row of the same video is replaced (a later claim's), keeping its `published_at`; a `published` one
    /// is left alone.
    func publishPlayable(_ video: PublishedVideo, lease: JobLease, now: Int64) async throws(CatalogError)
    /// The stage and master playlist of the video `id`, nil when there is no such row: what the sweep keeps.
    func videoStage(id: String) async throws(CatalogError) -> (stage: VideoStage, masterPath: String?)?
    func publish(_ image: PublishedImage, lease: JobLease, now: Int64) async throws(CatalogError)
    /// A byte-identical upload of something already published: the job points at the existing media.
    func finishDuplicate(_ lease: JobLease, of media: PublishedMedia, now: Int64) async throws(CatalogError)
    func publishedMedia(contentHash: String) async throws(CatalogError) -> PublishedMedia?
    func isPublished(mediaID: String) async throws(CatalogError) -> Bool
    /// Whether post `id` was deleted (its tombstone is kept): an original or upload of it found later is removed,
    /// never queued again.
    func isDeleted(id: String) async throws(CatalogError) -> Bool
}
