internal import Deadlines
internal import FileSystem
package import Foundation
internal import Synchronization
package import Transcode

/// `reel upload` end to end: plan, compress if needed, create or resume the tus upload, send it, then (when asked)
/// follow the job until it is published. Everything that happens is reported as an `UploadEvent`.
package struct UploadFlow: Sendable {
    package var source: UploadSource
    package var uploader: TusUploader
    package var poller: JobPoller
    package var store: ResumeStore
    package var quality: CompressPreset.Quality
    /// Follow the job after the upload (`--no-wait` turns it off).
    package var waitsForJob: Bool
    /// The post's caption, title and creator as `Upload-Metadata` keys (`--caption`, `--title`, `--creator`).
    package var post: [(key: String, value: String)] = []
    /// Seconds on a monotonic clock, for the rate and ETA.
    package var now: @Sendable () -> Double
    /// Polled while compressing (SIGINT); the network part stops through task cancellation or this flag.
    package var isCancelled: @Sendable () -> Bool

    package init(
        source: UploadSource, uploader: TusUploader, poller: JobPoller, store: ResumeStore,
        quality: CompressPreset.Quality,
        waitsForJob: Bool = true, now: @escaping @Sendable () -> Double = UploadFlow.monotonicSeconds,
        isCancelled: @escaping @Sendable () -> Bool = { false }
    ) {
        self.source = source
        self.uploader = uploader
        self.poller = poller
        self.store = store
        self.quality = quality
        self.waitsForJob = waitsForJob
        self.now = now
        self.isCancelled = isCancelled
    }

    /// How the run ended without an error.
    package struct Result: Sendable, Equatable {
        package var jobURL: URL
        /// Nil with `--no-wait`.
        package var outcome: JobPoller.Outcome?
    }

    /// Uploads `path`.
    /// - Throws: `UploadError` (its `exitCode` is the process's).
    package func run(path: String, events: @escaping @Sendable (UploadEvent) -> Void) async throws -> Result {
        let plan = try source.plan(path: path, quality: quality)
        events(.plan(plan))
        let contentHash: String
        do { contentHash = try ContentHash.sha256(ofFile: path) } catch {
            throw UploadError(.failed(code: "read_failed"), "cannot hash \(path): \(error)")
        }
        let compressQuality: CompressPreset.Quality?
        if case let .compress(quality) = plan.action { compressQuality = quality } else { compressQuality = nil }
        let key = try ResumeStore.key(contentSHA256: contentHash, server: uploader.server, quality: compressQuality)
        var uploadPath = path
        if let compressQuality {
            uploadPath = store.compressedPath(key)
            if !Directory.exists(uploadPath) {
                store.remove(key)  // an entry without its compressed bytes cannot be resumed
                do { try Directory.create(store.directory) } catch {
                    throw UploadError(.failed(code: "cache_unwritable"), "cannot create \(store.directory): \(error)")
                }
                events(.compressing(percent: 0))
                let (isCancelled, source, target) = (isCancelled, source, uploadPath)
                // On a thread of its own: the encode waits for its parallel encoders (`ParallelLoop`), never on a
                // thread of the concurrency pool.
                _ = try await onOwnThread("compress \(path)") {
                    try source.compress(
                        plan, quality: compressQuality, to: target,
                        progress: { events(.compressing(percent: $0)) }, isCancelled: isCancelled)
                }
                events(.compressing(percent: 100))
            }
        }
        let length: Int64
        do { length = try ReadOnlyFile(path: uploadPath).size } catch {
            throw UploadError(.failed(code: "read_failed"), "cannot open \(uploadPath): \(error)")
        }
        if compressQuality != nil { events(.compressed(path: uploadPath, bytes: length)) }

        let tracker = ProgressTracker(total: length, now: now, events: events)
        var completion: TusUploader.Completion?
        var restarts = 0
        while completion == nil {
            try checkInterrupt()
            let (upload, offset) = try await startOrResume(
                key: key, path: path, contentHash: contentHash, length: length,
                plan: plan, quality: compressQuality, events: events)
            do {
                completion = try await uploader.send(file: uploadPath, length: length, to: upload, from: offset) {
                    tracker.record($0)
                }
            } catch let error as UploadError where error.code == "job_unknown" {
                store.remove(key)  // the upload is complete: nothing is left to resume
                throw error
            }
            if completion == nil {
                // The upload vanished on the server (expired, or the server's state was reset): start a new one.
                store.remove(entryOnly: key)
                restarts += 1
                guard restarts <= 2 else {
                    throw UploadError(
                        .failed(code: "upload_lost"),
                        "\(upload.absoluteString) disappeared from the server \(restarts) times")
                }
            }
        }
        store.remove(key)
        guard let jobURL = URL(string: completion!.jobPath, relativeTo: uploader.server)?.absoluteURL else {
            throw UploadError(
                .failed(code: "protocol_error"), "the Reel-Job header \"\(completion!.jobPath)\" is not a URL")
        }
        events(.uploaded(jobURL: jobURL.absoluteString))
        guard waitsForJob else { return Result(jobURL: jobURL, outcome: nil) }
        let outcome = try await poller.poll(jobPath: jobURL.absoluteString) { job in
            events(.job(state: job.state, progressPercent: job.progressPercent))
        }
        events(
            .done(
                state: outcome.job.state, reason: outcome.job.reason, mediaID: outcome.job.mediaID,
                masterURL: outcome.masterURL?.absoluteString))
        return Result(jobURL: jobURL, outcome: outcome)
    }

    /// HEADs a remembered upload and continues it, or creates a new one and remembers it.
    func startOrResume(
        key: String, path: String, contentHash: String, length: Int64, plan: UploadPlan,
        quality: CompressPreset.Quality?,
        events: @Sendable (UploadEvent) -> Void
    ) async throws -> (URL, Int64) {
        if let entry = store.load(key), entry.length == length, let url = URL(string: entry.uploadURL) {
            if let state = try await uploader.state(of: url), state.length == nil || state.length == length {
                events(.resumed(uploadURL: url.absoluteString, offset: state.offset))
                return (url, state.offset)
            }
            store.remove(entryOnly: key)
        }
        let url = try await uploader.create(
            length: length, filename: plan.filename, filetype: plan.filetype, post: post)
        try store.save(
            ResumeStore.Entry(
                uploadURL: url.absoluteString, server: uploader.server.absoluteString, source: path,
                contentSHA256: contentHash, length: length, quality: quality?.rawValue), key: key)
        events(.created(uploadURL: url.absoluteString))
        return (url, 0)
    }

    func checkInterrupt() throws {
        if isCancelled() || Task.isCancelled {
            throw UploadError(.interrupted, "interrupted; run the same command again to resume the upload")
        }
    }

    /// Seconds since an arbitrary origin, never going back.
    package static let monotonicSeconds: @Sendable () -> Double = {
        ProcessInfo.processInfo.systemUptime
    }
}

/// Turns offsets reported by the uploader into `progress` events with rate and ETA.
final class ProgressTracker: Sendable {
    // The uploader reports from one task at a time; the Mutex only makes that safe to state.
    private let progress: Mutex<UploadProgress>
    private let now: @Sendable () -> Double
    private let events: @Sendable (UploadEvent) -> Void

    init(total: Int64, now: @escaping @Sendable () -> Double, events: @escaping @Sendable (UploadEvent) -> Void) {
        progress = Mutex(UploadProgress(total: total))
        self.now = now
        self.events = events
    }

    func record(_ offset: Int64) {
        let snapshot = progress.withLock { progress in
            progress.record(bytes: offset, at: now())
            return progress
        }
        events(
            .progress(
                bytes: snapshot.bytes, total: snapshot.total, bytesPerSecond: snapshot.bytesPerSecond,
                etaSeconds: snapshot.etaSeconds))
    }
}
