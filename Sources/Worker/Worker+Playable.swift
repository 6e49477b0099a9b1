internal import Catalog
internal import FileSystem
internal import Foundation
internal import Logging
internal import MediaModel
internal import MediaStore
internal import NIOCore
internal import Transcode

extension Worker {
    /// A running job's provisional rendition (issue 64), published as the job hands it over in `playable.json`:
    /// files under the claim's own `videos/<id>.e<epoch>.playable/` keys, segments before the playlists that list
    /// them, the master last, then the catalog row (`publishPlayable`, fenced by the lease) puts the post in the feed.
    /// A growing (`EVENT`) playlist is stored again as it grows. A failure here never fails the job: the provisional
    /// rendition is given up, and the post appears with its ladder as before.
    func syncPlayable(_ entry: inout RunningJob, final: Bool = false) async {
        let now = Self.monotonic
        guard entry.playable.abandoned == nil, !entry.playable.isFinished,
            final || entry.playable.isDue(now: now)
        else { return }
        entry.playable.lastLook = now
        do {
            try await syncPlayableFiles(&entry, final: final)
        } catch {
            entry.playable.abandoned = "\(error)"
            logger.warning(
                "cannot publish a job's provisional rendition; the post appears with its ladder",
                metadata: ["job": "\(entry.job.id)", "error": "\(error)"])
        }
    }

    private func syncPlayableFiles(_ entry: inout RunningJob, final: Bool) async throws {
        let invocation = entry.invocation
        guard let status = try? FileStatus(path: invocation.playableFile, followingSymlinks: false) else { return }
        if entry.playable.outcomeStamp.map({ $0 != (status.size, status.modified) }) ?? true {
            let bytes = try ReadOnlyFile.contents(of: invocation.playableFile, limit: 1 << 20)
            entry.playable.outcome = try JSONDecoder().decode(PlayableOutcome.self, from: Data(bytes))
            entry.playable.outcomeStamp = (status.size, status.modified)
        }
        guard let outcome = entry.playable.outcome, !outcome.renditions.isEmpty else { return }
        let job = entry.job
        let prefix = LibraryLayout.playable(job.id, epoch: job.epoch)
        let directory = invocation.playableDirectory
        var ended = true
        var ready = true
        for rendition in outcome.renditions {
            let folder = (rendition.playlist as NSString).deletingLastPathComponent
            guard PlayableSync.isPlainName(folder) else {
                throw ProcessingFailure(.outputFailed, "a provisional rendition named \(folder)", path: directory)
            }
            let bytes = try ReadOnlyFile.contents(of: directory + "/" + rendition.playlist, limit: 1 << 20)
            var text = String(decoding: bytes, as: UTF8.self)
            if final { text = PlayableSync.ended(text) }
            let segments = PlayableSync.segments(listedIn: text)
            var stored = segments.prefix { entry.playable.stored.contains(folder + "/" + $0) }.count
            let budget =
                final
                ? segments.count
                : entry.playable.isInFeed ? PlayableSync.segmentsPerLook : PlayableSync.segmentsBeforeFeed
            let wanted = PlayableSync.initSegments(listedIn: text) + segments[stored...].prefix(budget)
            for name in wanted where !entry.playable.stored.contains(folder + "/" + name) {
                guard PlayableSync.isPlainName(name) else {
                    throw ProcessingFailure(.outputFailed, "a provisional playlist lists \(name)", path: directory)
                }
                let relative = folder + "/" + name
                try await library.put(
                    try MediaKey(prefix + "/" + relative), file: directory + "/" + relative,
                    attributes: .media(named: prefix + "/" + relative), createOnly: true)
                entry.playable.stored.insert(relative)
            }
            stored = segments.prefix { entry.playable.stored.contains(folder + "/" + $0) }.count
            // The library's playlist lists only what is stored: the rest follows while the post already plays.
            let shown = PlayableSync.prefix(of: text, segments: stored)
            ended = ended && PlayableSync.isEnded(shown)
            ready = ready && stored >= min(PlayableSync.segmentsBeforeFeed, segments.count) && stored > 0
            try await storePlaylist(Array(shown.utf8), relative: rendition.playlist, prefix: prefix, &entry)
        }
        if !entry.playable.isInFeed, ready {
            for name in [outcome.posterJPEG, outcome.posterWebP, "master.m3u8"] {
                guard PlayableSync.isPlainName(name) else {
                    throw ProcessingFailure(.outputFailed, "a provisional file named \(name)", path: directory)
                }
                try await library.put(
                    try MediaKey(prefix + "/" + name), file: directory + "/" + name,
                    attributes: .media(named: prefix + "/" + name), createOnly: false)
            }
            let video = playableVideo(job, outcome, prefix: prefix)
            try await store.publishPlayable(video, lease: job.lease, now: Self.nowMilliseconds)
            entry.playable.isInFeed = true
            #if REEL_TEST_HOOKS
            reach("after-playable")
            #endif
            logger.info(
                "post playable",
                metadata: [
                    "job": "\(job.id)", "mode": "\(outcome.mode.rawValue)",
                    "rungs": "\(outcome.renditions.map(\.id).joined(separator: ","))",
                    "since_start_s": "\(String(format: "%.3f", Self.monotonic - entry.started))",
                ])
        }
        entry.playable.isFinished = ended && entry.playable.isInFeed
    }

    /// A media playlist stored again when its text changed since the last time.
    private func storePlaylist(
        _ bytes: [UInt8], relative: String, prefix: String, _ entry: inout RunningJob
    )
        async throws
    {
        guard entry.playable.playlists[relative] != bytes else { return }
        try await library.put(
            try MediaKey(prefix + "/" + relative), bytes: ByteBuffer(bytes: bytes),
            attributes: .media(named: prefix + "/" + relative), createOnly: false)
        entry.playable.playlists[relative] = bytes
    }

    /// The catalog's row for a provisional rendition.
    func playableVideo(_ job: FeedJob, _ outcome: PlayableOutcome, prefix: String) -> PublishedVideo {
        let top = outcome.renditions.max { $0.height < $1.height }
        return PublishedVideo(
            id: job.id, createdAt: job.createdAt, publishedAt: Self.nowMilliseconds,
            durationMilliseconds: Int((outcome.durationSeconds * 1000).rounded()), width: top?.width ?? 0,
            height: top?.height ?? 0, contentHash: job.contentHash ?? job.id, source: outcome.info,
            masterPath: prefix + "/master.m3u8", posterJPEGPath: prefix + "/" + outcome.posterJPEG,
            posterWebPPath: prefix + "/" + outcome.posterWebP,
            renditions: outcome.renditions.map {
                FeedVideo.Rendition(
                    rung: $0.id, width: $0.width, height: $0.height, bandwidth: $0.bandwidth,
                    averageBandwidth: $0.averageBandwidth, codecs: $0.codecs, segments: $0.segments,
                    videoCodec: $0.videoCodec?.rawValue, crf: $0.crf, targetSSIMY: $0.targetSSIMY,
                    prefetch: $0.prefetch)
            },
            stage: .playable, post: job.post)
    }

    /// A refused upload's provisional rendition goes at once (the catalog already withdrew the post); what cannot be
    /// removed now the sweep removes.
    func removePlayable(of job: FeedJob) async {
        guard let objects = try? await library.list(prefix: LibraryLayout.playable(job.id, epoch: job.epoch) + "/")
        else { return }
        let removed = await remove(keys: objects.map(\.key))
        if removed > 0 {
            logger.info("removed a refused upload's provisional rendition", metadata: ["job": "\(job.id)"])
        }
    }
}
