internal import Catalog
internal import ChatImages
internal import FileSystem
internal import Foundation
internal import Logging
internal import MediaModel
internal import MediaStore
internal import Transcode

#if canImport(Glibc)
internal import Glibc
#endif

extension Worker {
    /// The outputs go into the library under this claim's own keys (`videos/<id>.e<epoch>/` or
    /// `images/<id>.e<epoch>.webp`, published whole: a directory renames the synced tree into place, object storage
    /// writes each file create-only), then the catalog row in one transaction, which proves the lease and names the
    /// keys, then the original is filed. Until that commit no feed row points at the keys, so a reader never sees half
    /// a ladder.
    ///
    /// Fencing: the lease is renewed just before publishing (a worker that lost it stops there) and while a long
    /// publish goes on; no other claim ever writes these keys, so a worker fenced out never touches the outputs of the
    /// job's new holder; and the commit proves the lease. A claim's outputs are removed after a failed commit only
    /// while this worker still holds the lease; otherwise the job's next holder, or the sweep, removes them.
    func publish(_ job: FeedJob, outcome: JobOutcome, staging path: String, seconds: Double) async throws {
        #if REEL_TEST_HOOKS
        reach("after-staging")
        #endif
        guard
            try await store.renewLease(
                job.lease, until: Self.nowMilliseconds + leaseMilliseconds, now: Self.nowMilliseconds)
        else {
            throw CatalogError(.leaseLost, "\(job.lease) was taken over before its outputs were published")
        }
        let staging = StagingDirectory(existing: path)
        let contentHash = job.contentHash ?? job.id
        let claim = LibraryLayout.Claim(id: job.id, epoch: job.epoch)
        let kind: FeedJob.Kind
        do {
            if let summary = outcome.video {
                kind = .video
                let prefix = LibraryLayout.video(job.id, epoch: job.epoch)
                try await publishOutputs(staging.path + "/media", to: prefix, of: job)
                try await store.publish(
                    publishedVideo(
                        job, summary: summary, info: outcome.info, contentHash: contentHash, prefix: prefix + "/"),
                    lease: job.lease, now: Self.nowMilliseconds)
            } else if let image = outcome.image {
                kind = .image
                let key = LibraryLayout.image(job.id, epoch: job.epoch)
                try await publishOutputs(staging.path + "/media.webp", to: key, of: job)
                try await store.publish(
                    publishedImage(job, image, path: key, contentHash: contentHash), lease: job.lease,
                    now: Self.nowMilliseconds)
            } else {
                throw Self.noOutput(path: scratch.incoming(job.id))
            }
        } catch let error as CatalogError where error.kind == .duplicate {
            // The same bytes published by a parallel job a moment ago: content_hash is unique. The lease was proved
            // in the same (rolled back) transaction, so these keys are this claim's.
            await removeOutputs(of: claim)
            guard let existing = try await store.publishedMedia(contentHash: contentHash) else { throw error }
            return try await finishAsDuplicate(job, of: existing, seconds: seconds)
        } catch {
            // Not recorded: this claim's keys go while the lease is still this worker's; otherwise the job's next
            // holder or the sweep takes them. Nothing reads them meanwhile: no row names them.
            if (error as? CatalogError)?.kind != .leaseLost, await stillHolds(job) {
                await removeOutputs(of: claim)
            }
            throw error
        }
        #if REEL_TEST_HOOKS
        reach("after-commit")
        #endif
        staging.discard()
        await fileOriginal(job.id, at: LibraryLayout.original(job.id))
        report(
            id: job.id, name: SourceName(job.sourceName), state: .published, kind: kind, reason: nil, message: nil,
            mediaID: job.id, attempts: job.attempts, seconds: seconds)
    }

    /// The staged file or tree published as `key`, the lease renewed as objects go in (a long upload to a slow
    /// store would otherwise outlast it).
    func publishOutputs(_ staged: String, to key: String, of job: FeedJob) async throws {
        #if REEL_TEST_HOOKS
        try configuration.faults.check(.publishOutputs, path: key)
        #endif
        let keeper = LeaseKeeper(store: store, lease: job.lease, leaseSeconds: configuration.leaseSeconds)
        let kill = midUploadKill
        let count = try await library.publish(staged: staged, to: try MediaKey(key)) { _ in
            kill()
            try await keeper.renewIfDue()
        }
        #if REEL_TEST_HOOKS
        reach("after-rename")
        #endif
        logger.debug("outputs published", metadata: ["job": "\(job.id)", "key": "\(key)", "objects": "\(count)"])
    }

    /// Every object a claim wrote, removed; what cannot be removed now is left to the sweep.
    /// - Returns: how many were removed.
    @discardableResult
    func removeOutputs(of claim: LibraryLayout.Claim) async -> Int {
        let keys: [String]
        do {
            let image = try MediaKey(LibraryLayout.image(claim.id, epoch: claim.epoch))
            keys =
                try await library.list(prefix: LibraryLayout.video(claim.id, epoch: claim.epoch) + "/").map(\.key)
                + (try await library.head(image) != nil ? [image.value] : [])
        } catch {
            return 0
        }
        return await remove(keys: keys)
    }

    /// `keys` removed one by one; failures are left to the next sweep.
    /// - Returns: how many were removed.
    func remove(keys: [String]) async -> Int {
        var removed = 0
        for key in keys {
            guard let mediaKey = try? MediaKey(key), (try? await library.delete(mediaKey)) != nil else { continue }
            removed += 1
        }
        return removed
    }

    /// The test kill point `mid-upload`: SIGKILL once the first output objects are in the library.
    nonisolated var midUploadKill: @Sendable () -> Void {
        #if REEL_TEST_HOOKS
        if configuration.faults.killPoint == "mid-upload" {
            return { kill(getpid(), SIGKILL) }
        }
        #endif
        return {}
    }

    /// Renews the job's lease: true while this worker still holds it. A catalog that cannot be reached says no.
    func stillHolds(_ job: FeedJob) async -> Bool {
        (try? await store.renewLease(
            job.lease, until: Self.nowMilliseconds + leaseMilliseconds, now: Self.nowMilliseconds)) == true
    }

    func publishedImage(_ job: FeedJob, _ image: ChatImageResult, path: String, contentHash: String) -> PublishedImage {
        PublishedImage(
            id: job.id, createdAt: job.createdAt, width: image.width, height: image.height, bytes: image.bytes,
            path: path, contentHash: contentHash)
    }

    /// An outcome that says published but names no output: a bug in the job, never retried.
    static func noOutput(path: String) -> ProcessingFailure {
        ProcessingFailure(.crashed, "the job reported success without an output", path: path, retryable: false)
    }

    /// The catalog's row for a video whose files are under `prefix` (ending in `/`).
    func publishedVideo(
        _ job: FeedJob, summary: TranscodeSummary, info: MediaInfo?, contentHash: String, prefix: String
    ) -> PublishedVideo {
        let top = summary.renditions.max { $0.height < $1.height }
        return PublishedVideo(
            id: job.id, createdAt: job.createdAt, publishedAt: Self.nowMilliseconds,
            durationMilliseconds: Int((summary.durationSeconds * 1000).rounded()),
            width: top?.width ?? 0, height: top?.height ?? 0, contentHash: contentHash, source: info,
            masterPath: prefix + "master.m3u8", posterJPEGPath: prefix + summary.posterJPEG,
            posterWebPPath: prefix + summary.posterWebP,
            renditions: summary.renditions.map {
                FeedVideo.Rendition(
                    rung: $0.id, width: $0.width, height: $0.height, bandwidth: $0.bandwidth,
                    averageBandwidth: $0.averageBandwidth, codecs: $0.codecs, segments: $0.segments,
                    videoCodec: $0.videoCodec?.rawValue, crf: $0.crf, targetSSIMY: $0.targetSSIMY,
                    prefetch: $0.prefetch)
            },
            storyboard: summary.storyboard?.prefixingPaths(with: prefix), loudness: summary.loudness, post: job.post)
    }

    /// A byte-identical re-upload: recorded first, then its copy goes (the same bytes are kept under `originals/`).
    func finishAsDuplicate(_ job: FeedJob, of existing: PublishedMedia, seconds: Double) async throws {
        try await store.finishDuplicate(job.lease, of: existing, now: Self.nowMilliseconds)
        if !configuration.scratchIsShared {
            do { try await library.delete(try MediaKey(LibraryLayout.original(job.id))) } catch {
                logger.warning(
                    "cannot remove a duplicate's original yet; the sweep will",
                    metadata: ["job": "\(job.id)", "error": "\(error)"])
            }
        }
        Directory.remove(scratch.incoming(job.id))
        Directory.remove(staging(of: job))
        report(
            id: job.id, name: SourceName(job.sourceName), state: .published, kind: existing.kind, reason: .duplicate,
            message: "byte-identical to \(existing.kind.rawValue) \(existing.id)", mediaID: existing.id,
            attempts: job.attempts,
            seconds: seconds)
    }

    /// Files the claimed upload at `key` beside its verdict (`originals/<id>`, `rejected/<id>`, `failed/<id>`).
    /// Where the scratch directory is the library's own, the upload is published there by rename; otherwise it has
    /// been `originals/<id>` since intake, and only this host's copy goes. Best effort: when it fails (a full or
    /// read-only disk), the upload stays in `.incoming/` and recovery's sweep files it once it can, since the catalog
    /// already has the verdict.
    func fileOriginal(_ id: String, at key: String) async {
        let local = scratch.incoming(id)
        guard Directory.exists(local) else { return }
        guard configuration.scratchIsShared else { return Directory.remove(local) }
        do {
            #if REEL_TEST_HOOKS
            try configuration.faults.check(.moveOriginal, path: key)
            #endif
            try await library.publish(staged: local, to: try MediaKey(key))
            try Directory.sync(scratch.incoming)
        } catch {
            if Self.isDiskFull(error) { noteDiskFull(error) }
            logger.warning(
                "cannot file an upload beside its verdict yet; recovery will",
                metadata: ["job": "\(id)", "error": "\(error)"])
        }
    }
}
