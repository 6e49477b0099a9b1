internal import Catalog
internal import Foundation
internal import Logging
internal import MediaModel
internal import MediaStore

extension Worker {
    /// The library's side of recovery, every `sweepSeconds`, on either engine: outputs of claims that will never be
    /// committed (a worker fenced out of its lease may publish after the job's next holder cleared its claim), and,
    /// where originals are stored at intake, originals that no job accounts for. Only objects older than the grace
    /// period are looked at, so a claim still publishing is never touched; each is judged by the catalog, read after
    /// the listing. An item that cannot be dealt with now is logged and tried again next time. Keys of a library made
    /// before claim-keyed outputs (`videos/<id>/`) never parse as a claim's and are never touched.
    /// - Parameter graceSeconds: the configuration's grace period unless given (tests pass one that has passed).
    func sweepLibrary(graceSeconds: Double? = nil) async throws {
        let cutoff = Int64(Date().timeIntervalSince1970) - Int64(graceSeconds ?? configuration.sweepGraceSeconds)
        var claims: [LibraryLayout.Claim: [MediaObjectInfo]] = [:]
        for prefix in [LibraryLayout.videos, LibraryLayout.images] {
            for object in try await library.list(prefix: prefix) {
                guard let claim = LibraryLayout.claim(ofOutput: object.key) else { continue }
                claims[claim, default: []].append(object)
            }
        }
        for (claim, keys) in claims where keys.allSatisfy({ ($0.modifiedSeconds ?? .max) < cutoff }) {
            do {
                guard try await isAbandoned(claim) else { continue }
                // The listing already named the claim's keys: no second listing.
                let removed = await remove(keys: keys.map(\.key))
                logger.warning(
                    "removed outputs that were never published",
                    metadata: ["claim": "\(claim)", "objects": "\(removed)"])
            } catch {
                logger.error(
                    "cannot sweep a claim's outputs yet", metadata: ["claim": "\(claim)", "error": "\(error)"])
            }
        }
        // A shared scratch directory files an original only once its job has a verdict: none lacks a job.
        guard !configuration.scratchIsShared else { return }
        for object in try await library.list(prefix: LibraryLayout.originals) {
            guard let id = LibraryLayout.id(ofOriginal: object.key), (object.modifiedSeconds ?? .max) < cutoff else {
                continue
            }
            do {
                try await sweepOriginal(id: id, bytes: object.size)
            } catch {
                logger.error("cannot sweep an original yet", metadata: ["job": "\(id)", "error": "\(error)"])
            }
        }
    }

    /// Whether no commit can ever point at `claim`'s outputs: its job moved on to a later claim, ended without them,
    /// or is gone. Outputs are kept while their claim is processing, and for good once it published them.
    func isAbandoned(_ claim: LibraryLayout.Claim) async throws -> Bool {
        guard let job = try await store.job(id: claim.id) else { return true }
        guard claim.isPlayable else { return !Self.keepsOutputs(of: claim, job: job) }
        let video = try await store.videoStage(id: claim.id)
        return !Self.keepsPlayable(claim, job: job, master: video?.stage == .playable ? video?.masterPath : nil)
    }

    /// Pure: a provisional rendition stays while the feed plays it (the row, still `playable`, names its master),
    /// or while its claim is the job's current one and processing (between its files and its row). Once the ladder
    /// is published it goes, after the sweep's grace period, which outlasts any cached page or playlist naming it.
    static func keepsPlayable(_ claim: LibraryLayout.Claim, job: FeedJob, master: String?) -> Bool {
        let prefix = LibraryLayout.playable(claim.id, epoch: claim.epoch) + "/"
        if let master, master.hasPrefix(prefix) { return true }
        return job.epoch == claim.epoch && job.state == .processing
    }

    /// Pure: a claim's outputs stay while it is the job's current claim and the job is processing, or once that claim
    /// published them (a duplicate's job points at other media, so its outputs go).
    static func keepsOutputs(of claim: LibraryLayout.Claim, job: FeedJob) -> Bool {
        guard job.epoch == claim.epoch else { return false }
        switch job.state {
        case .processing: return true
        case .published: return job.mediaID == claim.id
        case .queued, .rejected, .failed: return false
        }
    }

    /// Outputs of this job's earlier claims, removed by its current holder before it starts: no commit can point at
    /// them any more (the catalog refuses an earlier claim's), so nothing reads them. A fenced-out worker may still
    /// add to them afterwards; the sweep takes those.
    func removeEarlierClaims(of job: FeedJob) async throws {
        guard job.epoch > 1 else { return }
        var keys: [String] = []
        for prefix in [LibraryLayout.videos + job.id + ".e", LibraryLayout.images + job.id + ".e"] {
            for object in try await library.list(prefix: prefix) {
                // An earlier claim's provisional rendition may still be what the feed plays: the sweep, which
                // asks the catalog, removes it once nothing names it.
                guard let claim = LibraryLayout.claim(ofOutput: object.key), claim.id == job.id,
                    claim.epoch < job.epoch, !claim.isPlayable
                else { continue }
                keys.append(object.key)
            }
        }
        guard !keys.isEmpty else { return }
        let removed = await remove(keys: keys)
        logger.info(
            "removed an earlier claim's unpublished outputs", metadata: ["job": "\(job.id)", "objects": "\(removed)"])
    }

    /// An original with no job gets one (an upload is never dropped), unless its post was deleted; a duplicate's
    /// copy, once recorded, goes.
    func sweepOriginal(id: String, bytes: Int64) async throws {
        guard let job = try await store.job(id: id) else {
            if try await store.isDeleted(id: id) {
                try await library.delete(try MediaKey(LibraryLayout.original(id)))
                logger.info("removed a deleted post's original", metadata: ["job": "\(id)"])
                return
            }
            try await store.insertJob(
                id: id, sourceName: Array("(recovered)".utf8), bytes: Int(bytes), owner: owner,
                now: Self.nowMilliseconds, leaseMilliseconds: leaseMilliseconds)
            try await store.release(JobLease(id: id, epoch: 0, owner: owner), now: Self.nowMilliseconds)
            logger.warning("an original without a job was queued again", metadata: ["job": "\(id)"])
            return
        }
        if job.state == .published, let media = job.mediaID, media != id {
            try await library.delete(try MediaKey(LibraryLayout.original(id)))
            logger.info("removed a duplicate's original", metadata: ["job": "\(id)", "media_id": "\(media)"])
        }
    }
}
