internal import Catalog
internal import ChatImages
internal import FileSystem
internal import Foundation
internal import Logging
internal import MediaModel
internal import Transcode

extension Worker {
    /// The outputs go into place (renamed, then the directory fsynced), then the catalog row in one transaction,
    /// then the original to `originals/`. A reader sees the media only once all of its files are there, and the
    /// original moves only after that.
    ///
    /// Fencing: the lease is renewed just before the renames (a worker that lost it stops there), the renames never
    /// replace an existing path, and the commit proves the lease. Outputs are removed after a failed commit only
    /// while this worker still holds the lease; otherwise they may be the new holder's, and that holder (or
    /// recovery) deals with whatever is left.
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
        if let objects = configuration.objects {
            return try await publishToStore(job, outcome: outcome, staging: path, seconds: seconds, objects: objects)
        }
        let staging = StagingDirectory(existing: path)
        let contentHash = job.contentHash ?? job.id
        let kind: FeedJob.Kind
        do {
            if let summary = outcome.video {
                kind = .video
                #if REEL_TEST_HOOKS
                try configuration.faults.check(.publishOutputs, path: layout.video(job.id))
                #endif
                try await clearStaleOutput(layout.video(job.id), of: job, into: staging)
                try staging.publish("media", to: layout.video(job.id))
                #if REEL_TEST_HOOKS
                reach("after-rename")
                #endif
                try await store.publish(
                    publishedVideo(job, summary: summary, info: outcome.info, contentHash: contentHash),
                    lease: job.lease, now: Self.nowMilliseconds)
            } else if let image = outcome.image {
                kind = .image
                #if REEL_TEST_HOOKS
                try configuration.faults.check(.publishOutputs, path: layout.image(job.id))
                #endif
                try await clearStaleOutput(layout.image(job.id), of: job, into: staging)
                try staging.publish("media.webp", to: layout.image(job.id))
                #if REEL_TEST_HOOKS
                reach("after-rename")
                #endif
                try await store.publish(
                    publishedImage(job, image, path: "images/\(job.id).webp", contentHash: contentHash),
                    lease: job.lease, now: Self.nowMilliseconds)
            } else {
                throw Self.noOutput(path: layout.incoming(job.id))
            }
        } catch let error as CatalogError where error.kind == .duplicate {
            // The same bytes published by a parallel job a moment ago: content_hash is unique. The lease was proved
            // in the same (rolled back) transaction, so the outputs at this job's paths are this worker's.
            Directory.remove(layout.video(job.id))
            Directory.remove(layout.image(job.id))
            guard let existing = try await store.publishedMedia(contentHash: contentHash) else { throw error }
            return try await finishAsDuplicate(job, of: existing, seconds: seconds)
        } catch let error as CatalogError {
            // Not recorded: the outputs must not stay visible without their row, if they are still this worker's.
            if error.kind != .leaseLost, await stillHolds(job) {
                Directory.remove(layout.video(job.id))
                Directory.remove(layout.image(job.id))
            }
            throw error
        }
        #if REEL_TEST_HOOKS
        reach("after-commit")
        #endif
        staging.discard()
        moveOriginal(job.id, to: layout.original(job.id))
        report(
            id: job.id, name: SourceName(job.sourceName), state: .published, kind: kind, reason: nil, message: nil,
            mediaID: job.id, attempts: job.attempts, seconds: seconds)
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
        _ job: FeedJob, summary: TranscodeSummary, info: MediaInfo?, contentHash: String, prefix: String? = nil
    ) -> PublishedVideo {
        let top = summary.renditions.max { $0.height < $1.height }
        let prefix = prefix ?? "videos/\(job.id)/"
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
            storyboard: summary.storyboard?.prefixingPaths(with: prefix), loudness: summary.loudness)
    }

    /// An output path already taken while this worker holds the lease: a late worker's files (it lost the lease, so
    /// its commit will be refused) or an earlier attempt's. Nothing published lives there (the job is not
    /// published, and only the lease holder publishes), so it is moved into this attempt's staging and removed.
    func clearStaleOutput(_ path: String, of job: FeedJob, into staging: StagingDirectory) async throws {
        guard Directory.exists(path) else { return }
        guard try await !store.isPublished(mediaID: job.id) else {
            throw CatalogError(.leaseLost, "\(job.lease): \(path) is already published")
        }
        let aside = staging.path + "/stale-output"
        try Directory.move(path, to: aside)
        Directory.remove(aside)
        logger.warning("removed a stale output before publishing", metadata: ["job": "\(job.id)", "path": "\(path)"])
    }

    /// A byte-identical re-upload: recorded first, then its copy goes (the same bytes are kept under `originals/`).
    func finishAsDuplicate(_ job: FeedJob, of existing: PublishedMedia, seconds: Double) async throws {
        try await store.finishDuplicate(job.lease, of: existing, now: Self.nowMilliseconds)
        if let objects = configuration.objects {
            do { try await objects.removeOriginal(id: job.id) } catch {
                logger.warning(
                    "cannot remove a duplicate's original yet; the sweep will",
                    metadata: ["job": "\(job.id)", "error": "\(error)"])
            }
        }
        Directory.remove(layout.incoming(job.id))
        Directory.remove(staging(of: job))
        report(
            id: job.id, name: SourceName(job.sourceName), state: .published, kind: existing.kind, reason: .duplicate,
            message: "byte-identical to \(existing.kind.rawValue) \(existing.id)", mediaID: existing.id,
            attempts: job.attempts,
            seconds: seconds)
    }

    /// Moves the claimed upload next to its verdict. Best effort: when it fails (full or read-only disk), the upload
    /// stays in `.incoming/` and recovery's sweep moves it once it can, since the catalog already has the verdict.
    /// With the library in object storage the original is already in its place (`originals/<id>`): the local copy goes.
    func moveOriginal(_ id: String, to destination: String) {
        guard Directory.exists(layout.incoming(id)) else { return }
        if configuration.objects != nil { return Directory.remove(layout.incoming(id)) }
        do {
            #if REEL_TEST_HOOKS
            try configuration.faults.check(.moveOriginal, path: destination)
            #endif
            try Directory.move(layout.incoming(id), to: destination)
            try Directory.sync(Directory.parent(of: destination))
            try Directory.sync(layout.incoming)
        } catch {
            if error.isDiskFull { noteDiskFull(error) }
            logger.warning(
                "cannot move an upload next to its verdict yet; recovery will",
                metadata: ["job": "\(id)", "error": "\(error)"])
        }
    }
}
