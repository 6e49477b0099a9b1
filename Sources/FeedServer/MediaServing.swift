package import MediaStore

/// What `/media/` answers from: the library's store (a directory, or object storage, perhaps held in memory by
/// `CachedMediaStore`), and whether viewers are sent to presigned URLs instead (`--media-redirect`).
package struct MediaServing: Sendable {
    package let store: any MediaStore
    /// How long a presigned URL is valid; nil sends the bytes from this server. Only for a store that can presign.
    package let redirectExpiry: Duration?

    /// How long a client is told to wait when the store does not answer.
    package static let retryAfterSeconds = 5

    /// - Precondition: `redirectExpiry` is nil unless `store.canPresign` (`reel serve` validates it first).
    package init(store: any MediaStore, redirectExpiry: Duration? = nil) {
        precondition(redirectExpiry == nil || store.canPresign, "\(store.name) cannot presign URLs")
        self.store = store
        self.redirectExpiry = redirectExpiry
    }
}
