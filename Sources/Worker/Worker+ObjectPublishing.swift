internal import Catalog
internal import FileSystem
internal import Foundation
internal import Logging
internal import MediaModel

#if canImport(Glibc)
internal import Glibc
#endif

extension Worker {
    /// Publishing to object storage (the lease just renewed): the outputs go up under this claim's own keys (`videos/<id>.e<epoch>/`,
    /// create-only), then the catalog row in one transaction, which proves the lease. Until that commit no feed item
    /// points at the keys, so a reader never sees half a ladder; a worker that lost its lease has its commit refused,
    /// and its keys, which no other claim can write, are removed by the sweep. The original stays at
    /// `originals/<id>`; only this host's local copy goes.
    func publishToStore(
        _ job: FeedJob, outcome: JobOutcome, staging path: String, seconds: Double, objects: ObjectLibrary
    ) async throws {
        let staging = StagingDirectory(existing: path)
        let contentHash = job.contentHash ?? job.id
        let claim = ObjectLayout.Claim(id: job.id, epoch: job.epoch)
        let kind: FeedJob.Kind
        do {
            if let summary = outcome.video {
                kind = .video
                let prefix = ObjectLayout.video(job.id, epoch: job.epoch)
                let keeper = LeaseKeeper(store: store, lease: job.lease, leaseSeconds: configuration.leaseSeconds)
                let kill = midUploadKill
                let count = try await objects.uploadOutputs(root: staging.path, folder: "media", under: prefix) {
                    uploaded in
                    if uploaded == 1 { kill() }
                    try await keeper.renewIfDue()
                }
                try await store.publish(
                    publishedVideo(
                        job, summary: summary, info: outcome.info, contentHash: contentHash, prefix: prefix + "/"),
                    lease: job.lease, now: Self.nowMilliseconds)
                logger.debug("outputs uploaded", metadata: ["job": "\(job.id)", "objects": "\(count)"])
            } else if let image = outcome.image {
                kind = .image
                let key = ObjectLayout.image(job.id, epoch: job.epoch)
                try await objects.uploadOutput(file: staging.path + "/media.webp", to: key)
                try await store.publish(
                    publishedImage(job, image, path: key, contentHash: contentHash), lease: job.lease,
                    now: Self.nowMilliseconds)
            } else {
                throw Self.noOutput(path: ObjectLayout.original(job.id))
            }
        } catch let error as CatalogError where error.kind == .duplicate {
            // The same bytes published by a parallel job a moment ago; the lease was proved in the same (rolled back)
            // transaction, so these keys are this claim's.
            await objects.removeOutputs(of: claim)
            guard let existing = try await store.publishedMedia(contentHash: contentHash) else { throw error }
            return try await finishAsDuplicate(job, of: existing, seconds: seconds)
        } catch {
            // Not recorded: this claim's keys go while the lease is still this worker's; otherwise the sweep takes them.
            if (error as? CatalogError)?.kind != .leaseLost, await stillHolds(job) {
                await objects.removeOutputs(of: claim)
            }
            throw error
        }
        #if REEL_TEST_HOOKS
        reach("after-commit")
        #endif
        staging.discard()
        Directory.remove(layout.incoming(job.id))
        report(
            id: job.id, name: SourceName(job.sourceName), state: .published, kind: kind, reason: nil, message: nil,
            mediaID: job.id, attempts: job.attempts, seconds: seconds)
    }

    /// The test kill point `mid-upload`: SIGKILL once the first output object is in the store.
    nonisolated var midUploadKill: @Sendable () -> Void {
        #if REEL_TEST_HOOKS
        if configuration.faults.killPoint == "mid-upload" {
            return { kill(getpid(), SIGKILL) }
        }
        #endif
        return {}
    }
}
