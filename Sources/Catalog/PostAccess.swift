/// Who may see a post, and changing it (issue 65): its visibility and the access epoch that signed URLs of a private
/// post carry. Read on the primary, since a revocation must hold at once.
package protocol PostAccess: Sendable {
    /// The visibility and access epoch of video `id`; nil when there is no such video.
    func videoAccess(id: String) async throws(CatalogError) -> VideoAccess?
    /// Sets video `id`'s visibility, in one transaction with the feed's generation (its pages change). The access
    /// epoch is raised when the post becomes private, or with `revokingLinks`: every URL signed before stops playing.
    /// - Returns: the access as it is now; nil when there is no such video.
    func setVisibility(
        id: String, to visibility: Visibility, revokingLinks: Bool, now: Int64
    ) async throws(CatalogError) -> VideoAccess?
}

/// A video's visibility and the epoch its signed URLs must name.
package struct VideoAccess: Sendable, Equatable {
    package var visibility: Visibility
    package var epoch: Int64

    package init(visibility: Visibility, epoch: Int64) {
        self.visibility = visibility
        self.epoch = epoch
    }
}
