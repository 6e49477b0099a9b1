internal import MediaModel
internal import FeedStore
internal import FileSystem
internal import Foundation
internal import Logging
internal import ChatImages
internal import Transcode

extension Worker {
    /// The outputs go into place (renamed, then the directory fsynced), then the catalog row in one transaction,
    /// then the original to `originals/`. A reader sees the media only once all of its files are there, and the
    /// original moves only after that.
    func publish(_ job: FeedJob, outcome: JobOutcome, staging path: String, seconds: Double) throws {
        let staging = StagingDirectory(existing: path)
        let contentHash = job.contentHash ?? job.id
        reach("after-staging")
        let kind: FeedJob.Kind
        do {
            if let summary = outcome.video {
                kind = .video
                try configuration.faults.check(.publishOutputs, path: layout.video(job.id))
                try staging.publish("media", to: layout.video(job.id))
                reach("after-rename")
                try store.publish(publishedVideo(job, summary: summary, info: outcome.info, contentHash: contentHash),
                                  job: job.id, now: Self.nowMilliseconds)
            } else if let image = outcome.image {
                kind = .image
                try configuration.faults.check(.publishOutputs, path: layout.image(job.id))
                try staging.publish("media.webp", to: layout.image(job.id))
                reach("after-rename")
                let published = PublishedImage(id: job.id, createdAt: job.createdAt, width: image.width, height: image.height,
                                               bytes: image.bytes, path: "images/\(job.id).webp", contentHash: contentHash)
                try store.publish(published, job: job.id, now: Self.nowMilliseconds)
            } else {
                throw ProcessingFailure(.crashed, "the job reported success without an output", path: layout.incoming(job.id),
                                        retryable: false)
            }
        } catch let error as CatalogError where error.kind == .duplicate {
            // The same bytes published by a parallel job a moment ago: content_hash is unique.
            Directory.remove(layout.video(job.id))
            Directory.remove(layout.image(job.id))
            guard let existing = try store.publishedMedia(contentHash: contentHash) else { throw error }
            return try finishAsDuplicate(job, of: existing, seconds: seconds)
        } catch let error as CatalogError {
            // Not recorded: the outputs must not stay visible without their row.
            Directory.remove(layout.video(job.id))
            Directory.remove(layout.image(job.id))
            throw error
        }
        reach("after-commit")
        staging.discard()
        moveOriginal(job.id, to: layout.original(job.id))
        report(id: job.id, name: SourceName(job.sourceName), state: .published, kind: kind, reason: nil, message: nil,
               mediaID: job.id, attempts: job.attempts, seconds: seconds)
    }

    func publishedVideo(_ job: FeedJob, summary: TranscodeSummary, info: MediaInfo?, contentHash: String) -> PublishedVideo {
        let top = summary.renditions.max { $0.height < $1.height }
        let source = (try? JSONEncoder().encode(info)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
        let prefix = "videos/\(job.id)/"
        return PublishedVideo(
            id: job.id, createdAt: job.createdAt, publishedAt: Self.nowMilliseconds,
            durationMilliseconds: Int((summary.durationSeconds * 1000).rounded()),
            width: top?.width ?? 0, height: top?.height ?? 0, contentHash: contentHash, source: source,
            masterPath: prefix + "master.m3u8", posterJPEGPath: prefix + summary.posterJPEG, posterWebPPath: prefix + summary.posterWebP,
            renditions: summary.renditions.map {
                FeedVideo.Rendition(rung: $0.id, width: $0.width, height: $0.height, bandwidth: $0.bandwidth,
                                    averageBandwidth: $0.averageBandwidth, codecs: $0.codecs, segments: $0.segments,
                                    prefetch: Self.prefetchHint(playlist: layout.video(job.id) + "/" + $0.playlist))
            },
            storyboard: summary.storyboard?.prefixingPaths(with: prefix))
    }

    /// The rendition's prefetch hint, measured on the published files; nil (no hint shown) when a file cannot be read.
    static func prefetchHint(playlist path: String) -> PrefetchHint? {
        guard let bytes = try? ReadOnlyFile.contents(of: path, limit: 1 << 20) else { return nil }
        let folder = Directory.parent(of: path)
        return PrefetchHint(mediaPlaylist: String(decoding: bytes, as: UTF8.self)) { uri in
            guard !uri.contains("/"), let status = try? FileStatus(path: folder + "/" + uri, followingSymlinks: false),
                  status.kind == .regular else { return nil }
            return Int(status.size)
        }
    }

    /// A byte-identical re-upload: recorded first, then its copy goes (the same bytes are kept under `originals/`).
    func finishAsDuplicate(_ job: FeedJob, of existing: PublishedMedia, seconds: Double) throws {
        try store.finishDuplicate(job: job.id, of: existing, now: Self.nowMilliseconds)
        Directory.remove(layout.incoming(job.id))
        Directory.remove(layout.staging(job.id))
        report(id: job.id, name: SourceName(job.sourceName), state: .published, kind: existing.kind, reason: .duplicate,
               message: "byte-identical to \(existing.kind.rawValue) \(existing.id)", mediaID: existing.id, attempts: job.attempts,
               seconds: seconds)
    }

    /// Moves the claimed upload next to its verdict. Best effort: when it fails (full or read-only disk), the upload
    /// stays in `.incoming/` and recovery's sweep moves it once it can, since the catalog already has the verdict.
    func moveOriginal(_ id: String, to destination: String) {
        guard Directory.exists(layout.incoming(id)) else { return }
        do {
            try configuration.faults.check(.moveOriginal, path: destination)
            try Directory.move(layout.incoming(id), to: destination)
            try Directory.sync(Directory.parent(of: destination))
            try Directory.sync(layout.incoming)
        } catch {
            if error.isDiskFull { noteDiskFull(error) }
            logger.warning("cannot move an upload next to its verdict yet; recovery will", metadata: ["job": "\(id)", "error": "\(error)"])
        }
    }
}
