internal import Catalog
internal import Foundation
internal import Logging
internal import MediaModel
internal import ObjectStore

extension Worker {
    /// The store's side of recovery, every `sweepSeconds`: outputs of claims that will never be committed, and
    /// originals that no job accounts for. Only objects older than the grace period are looked at, so a claim still
    /// uploading is never touched; each is judged by the catalog, read after the listing. An item that cannot be
    /// dealt with now is logged and tried again next time.
    func sweepObjects(_ objects: ObjectLibrary) async throws {
        let cutoff = Int64(Date().timeIntervalSince1970) - Int64(objects.graceSeconds)
        var claims: [ObjectLayout.Claim: [ObjectInfo]] = [:]
        for prefix in [ObjectLayout.videos, ObjectLayout.images] {
            for object in try await objects.client.list(prefix: prefix) {
                guard let claim = ObjectLayout.claim(ofOutput: object.key) else { continue }
                claims[claim, default: []].append(object)
            }
        }
        for (claim, keys) in claims where keys.allSatisfy({ ($0.modifiedSeconds ?? .max) < cutoff }) {
            do {
                guard try await isAbandoned(claim) else { continue }
                // The listing already named the claim's keys: no second listing.
                let removed = await objects.remove(keys: keys.map(\.key))
                logger.warning(
                    "removed outputs that were never published",
                    metadata: ["claim": "\(claim)", "objects": "\(removed)"])
            } catch {
                logger.error(
                    "cannot sweep a claim's outputs yet", metadata: ["claim": "\(claim)", "error": "\(error)"])
            }
        }
        for object in try await objects.client.list(prefix: ObjectLayout.originals) {
            guard let id = ObjectLayout.id(ofOriginal: object.key), (object.modifiedSeconds ?? .max) < cutoff else {
                continue
            }
            do {
                try await sweepOriginal(id: id, bytes: object.size, objects: objects)
            } catch {
                logger.error("cannot sweep an original yet", metadata: ["job": "\(id)", "error": "\(error)"])
            }
        }
    }

    /// Whether no commit can ever point at `claim`'s outputs: its job moved on to a later claim, ended without them,
    /// or is gone. Outputs are kept while their claim is processing, and for good once it published them.
    func isAbandoned(_ claim: ObjectLayout.Claim) async throws -> Bool {
        guard let job = try await store.job(id: claim.id) else { return true }
        return !Self.keepsOutputs(of: claim, job: job)
    }

    /// Pure: a claim's outputs stay while it is the job's current claim and the job is processing, or once that claim
    /// published them (a duplicate's job points at other media, so its outputs go).
    static func keepsOutputs(of claim: ObjectLayout.Claim, job: FeedJob) -> Bool {
        guard job.epoch == claim.epoch else { return false }
        switch job.state {
        case .processing: return true
        case .published: return job.mediaID == claim.id
        case .queued, .rejected, .failed: return false
        }
    }

    /// An original with no job gets one (an upload is never dropped); a duplicate's copy, once recorded, goes.
    func sweepOriginal(id: String, bytes: Int64, objects: ObjectLibrary) async throws {
        guard let job = try await store.job(id: id) else {
            try await store.insertJob(
                id: id, sourceName: Array("(recovered)".utf8), bytes: Int(bytes), owner: owner,
                now: Self.nowMilliseconds, leaseMilliseconds: leaseMilliseconds)
            try await store.release(JobLease(id: id, epoch: 0, owner: owner), now: Self.nowMilliseconds)
            logger.warning("an original without a job was queued again", metadata: ["job": "\(id)"])
            return
        }
        if job.state == .published, let media = job.mediaID, media != id {
            try await objects.removeOriginal(id: id)
            logger.info("removed a duplicate's original", metadata: ["job": "\(id)", "media_id": "\(media)"])
        }
    }
}
