package import Catalog
internal import Foundation
package import Logging
internal import MediaModel
package import MediaStore

/// Deletes a post (issue 65): the catalog first, in one transaction that leaves a tombstone (`PostRemoval`), so the
/// post is out of every feed page and no worker can publish it again; then its files, which a crash may interrupt and
/// `finishPending` (the `DeletionService`, `reel delete` again) completes. Nothing is logged of the post but its id.
package struct PostDeleter: Sendable {
    package let catalog: any PostRemoval
    /// The library, as this server reads it (a cache in front of object storage forgets what it deletes).
    package let library: any MediaStore
    /// The tus uploads' store: a finished upload's leftovers (an object store's multipart parts) go too.
    package let uploads: (any ResumableUploads)?
    package let logger: Logger

    package init(catalog: any PostRemoval, library: any MediaStore, uploads: (any ResumableUploads)?, logger: Logger) {
        self.catalog = catalog
        self.library = library
        self.uploads = uploads
        self.logger = logger
    }

    /// What one deletion removed.
    package struct Report: Sendable, Equatable {
        package var id: String
        package var deletedAt: Int64
        package var reason: String
        package var rows: PostRemovalOutcome.RemovedRows
        package var media: MediaRemoved
    }

    /// The files that went.
    package struct MediaRemoved: Sendable, Equatable {
        /// Playlists, segments, posters, storyboards, reason files: every object under the post's keys.
        package var objects = 0
        package var original = false
    }

    /// What `delete` did.
    package enum Outcome: Sendable, Equatable {
        case deleted(Report)
        /// Deleted before; any files a crash left were removed now.
        case alreadyDeleted(Tombstone)
        case notFound
    }

    /// Deletes post `id`. Safe to repeat, and to run beside another deletion of the same post.
    /// - Throws: `CatalogError` when the catalog cannot be written (nothing changed); a library error after the
    ///   catalog's commit (the post is gone from the feed; its files are removed later).
    package func delete(id: String, reason: String, now: Int64) async throws -> Outcome {
        switch try await catalog.removePost(id: id, reason: reason, now: now) {
        case .notFound:
            return .notFound
        case let .alreadyRemoved(tombstone):
            if tombstone.mediaRemovedAt == nil { _ = try await removeMedia(of: id, now: now) }
            return .alreadyDeleted(tombstone)
        case let .removed(rows):
            #if REEL_TEST_HOOKS
            // Test hook: dies between the catalog's commit and the files, as a crash or kill -9 there would.
            if ProcessInfo.processInfo.environment["REEL_FAULT_INJECTION"] == "delete-after-commit" {
                kill(getpid(), SIGKILL)
            }
            #endif
            logger.info(
                "post deleted from the catalog",
                metadata: [
                    "video": "\(id)", "reason": "\(reason)", "in_feed": "\(rows.video)", "job": "\(rows.job)",
                    "viewer_events": "\(rows.viewerEvents)",
                ])
            let media = try await removeMedia(of: id, now: now)
            return .deleted(Report(id: id, deletedAt: now, reason: reason, rows: rows, media: media))
        }
    }

    /// Removes every file of post `id` and records it; each key is removed at most once, and absent keys are fine.
    func removeMedia(of id: String, now: Int64) async throws -> MediaRemoved {
        var removed = MediaRemoved()
        for key in try await keys(of: id) {
            try await library.delete(try MediaKey(key))
            if key == LibraryLayout.original(id) { removed.original = true } else { removed.objects += 1 }
        }
        // An upload's bookkeeping (the partial file, or an object store's multipart upload) goes as a terminated
        // upload's does; a finished one has none left, which is fine.
        try await uploads?.discard(id: id)
        try await catalog.markMediaRemoved(id: id, now: now)
        logger.info(
            "post's files removed",
            metadata: ["video": "\(id)", "objects": "\(removed.objects)", "original": "\(removed.original)"])
        return removed
    }

    /// Every key of post `id`: its outputs under every claim (`videos/<id>.e<epoch>...`, provisional ones too) and
    /// the layout before claims (`videos/<id>/`), its original, and a refused or failed upload with its reason.
    func keys(of id: String) async throws -> [String] {
        var keys: [String] = []
        for prefix in [LibraryLayout.videos + id + ".e", LibraryLayout.videos + id + "/"] {
            keys += try await library.list(prefix: prefix).map(\.key)
        }
        for verdict in [LibraryLayout.rejected, LibraryLayout.failed] {
            let own = verdict + id
            keys += try await library.list(prefix: own).map(\.key).filter { $0 == own || $0.hasPrefix(own + ".") }
        }
        if try await library.head(try MediaKey(LibraryLayout.original(id))) != nil {
            keys.append(LibraryLayout.original(id))
        }
        return keys
    }

    /// Removes the files of deleted posts whose removal a crash or an unreachable store interrupted; returns how many
    /// posts were finished. One that fails now is tried again next time.
    package func finishPending(now: Int64, limit: Int = 100) async -> Int {
        guard let pending = try? await catalog.tombstonesAwaitingMedia(limit: limit) else { return 0 }
        var finished = 0
        for tombstone in pending {
            do {
                _ = try await removeMedia(of: tombstone.id, now: now)
                finished += 1
            } catch {
                logger.warning(
                    "cannot remove a deleted post's files yet; tried again later",
                    metadata: ["video": "\(tombstone.id)", "error": "\(error)"])
            }
        }
        return finished
    }
}
