/// Deleting a post (issue 65): a creator's request, a takedown, an erasure under GDPR article 17. The catalog's part is
/// one transaction: the video's row and renditions, its viewer events and figures, its job (which fences out a worker
/// still holding it: its next transition finds no row) and its uploads' rows go, and a tombstone stays, so the post's
/// files can be removed after the commit, by whoever gets there first, and nothing re-queues what was deleted. The
/// tombstone keeps the id, the time and the reason only, for as long as the operator keeps it.
package protocol PostRemoval: Sendable {
    /// The id of the token whose upload became video `id`; nil for an inbox file, a seeded video, or no such post.
    func uploaderTokenID(ofVideo id: String) async throws(CatalogError) -> String?
    /// Removes post `id` from the catalog (see the protocol). A video job not yet published, or one that ended
    /// without a video, is a post too; an image is not.
    func removePost(id: String, reason: String, now: Int64) async throws(CatalogError) -> PostRemovalOutcome
    /// The tombstone of post `id`; nil when it was never deleted (or its tombstone was purged).
    func tombstone(id: String) async throws(CatalogError) -> Tombstone?
    /// Tombstones whose files are not known to be gone yet, oldest first: what a restart finishes.
    func tombstonesAwaitingMedia(limit: Int) async throws(CatalogError) -> [Tombstone]
    /// Records that post `id`'s files are gone.
    func markMediaRemoved(id: String, now: Int64) async throws(CatalogError)
    /// Forgets the tombstones of posts deleted before `deletedBefore` whose files are gone; returns how many.
    func purgeTombstones(deletedBefore: Int64) async throws(CatalogError) -> Int
}

/// What a deleted post leaves: its id, when and why, and whether its files are known to be gone.
package struct Tombstone: Sendable, Equatable {
    package var id: String
    /// Unix milliseconds.
    package var deletedAt: Int64
    /// A code, never the post's content: `creator`, `admin`, or what the operator gave `reel delete --reason`.
    package var reason: String
    package var mediaRemovedAt: Int64?

    package init(id: String, deletedAt: Int64, reason: String, mediaRemovedAt: Int64? = nil) {
        self.id = id
        self.deletedAt = deletedAt
        self.reason = reason
        self.mediaRemovedAt = mediaRemovedAt
    }
}

/// What `removePost` found.
package enum PostRemovalOutcome: Sendable, Equatable {
    /// Removed now; the counts say what went.
    case removed(RemovedRows)
    /// Deleted before: nothing changed.
    case alreadyRemoved(Tombstone)
    /// No such post.
    case notFound

    /// The catalog rows that went with a post.
    package struct RemovedRows: Sendable, Equatable {
        /// Whether it was in the feed (a video row, playable or published).
        package var video: Bool
        package var renditions: Int
        package var viewerEvents: Int
        /// Whether it had figures from a roll-up.
        package var stats: Bool
        /// Whether it had a job (a worker holding it is fenced out).
        package var job: Bool
        /// Upload rows that named it.
        package var uploads: Int

        package init(video: Bool, renditions: Int, viewerEvents: Int, stats: Bool, job: Bool, uploads: Int) {
            self.video = video
            self.renditions = renditions
            self.viewerEvents = viewerEvents
            self.stats = stats
            self.job = job
            self.uploads = uploads
        }
    }
}
