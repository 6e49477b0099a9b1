import Catalog
import MediaModel
import SQLiteCatalog
import Synchronization

/// The worker's catalog (SQLite underneath) with one fault a test chooses.
final class FaultyCatalog: JobQueue, Publishing {
    enum Fault {
        /// The duplicate check (between a job's claim and its launch) waits until the worker's task is cancelled, then
        /// fails as a catalog refusing a cancelled task's read does: shutdown landing mid-start.
        case shutdownMidStart
        /// The first requeue (a failure being recorded) finds the catalog away.
        case awayAtFirstRequeue
        /// The same, and meanwhile another worker (`owner`, not a worker token) took the job over: a host cut off past
        /// its lease.
        case takenOverAtFirstRequeue(by: String)
    }

    let base: SQLiteCatalogEngine
    let fault: Fault
    private let reached = Mutex(false)
    private let requeues = Mutex(0)

    init(_ base: SQLiteCatalogEngine, fault: Fault) {
        self.base = base
        self.fault = fault
    }

    /// Whether a start has reached the duplicate check.
    var startReachedTheCheck: Bool { reached.withLock { $0 } }

    func publishedMedia(contentHash: String) async throws(CatalogError) -> PublishedMedia? {
        guard case .shutdownMidStart = fault else { return try await base.publishedMedia(contentHash: contentHash) }
        reached.withLock { $0 = true }
        try? await Task.sleep(for: .seconds(60))  // ends at once when the worker is cancelled
        throw CatalogError(.unavailable, "the task was cancelled")
    }

    func job(id: String) async throws(CatalogError) -> FeedJob? { try await base.job(id: id) }
    func isDeleted(id: String) async throws(CatalogError) -> Bool { try await base.isDeleted(id: id) }
    func insertJob(
        id: String, sourceName: [UInt8], bytes: Int, post: PostFacts, owner: String, now: Int64,
        leaseMilliseconds: Int64
    ) async throws(CatalogError) {
        try await base.insertJob(
            id: id, sourceName: sourceName, bytes: bytes, post: post, owner: owner, now: now,
            leaseMilliseconds: leaseMilliseconds)
    }
    func deleteJob(_ lease: JobLease) async throws(CatalogError) { try await base.deleteJob(lease) }
    func release(_ lease: JobLease, now: Int64) async throws(CatalogError) { try await base.release(lease, now: now) }
    func claimNextJob(owner: String, now: Int64, leaseMilliseconds: Int64) async throws(CatalogError) -> FeedJob? {
        try await base.claimNextJob(owner: owner, now: now, leaseMilliseconds: leaseMilliseconds)
    }
    func renewLease(_ lease: JobLease, until: Int64, now: Int64) async throws(CatalogError) -> Bool {
        try await base.renewLease(lease, until: until, now: now)
    }
    func setJobFacts(
        _ lease: JobLease, kind: FeedJob.Kind?, contentHash: String?, now: Int64
    ) async throws(CatalogError) {
        try await base.setJobFacts(lease, kind: kind, contentHash: contentHash, now: now)
    }
    func setJobProgress(_ lease: JobLease, progress: Double, now: Int64) async throws(CatalogError) {
        try await base.setJobProgress(lease, progress: progress, now: now)
    }
    func finishJob(
        _ lease: JobLease, as error: ProcessingError, kind: FeedJob.Kind?, now: Int64
    ) async throws(CatalogError) {
        try await base.finishJob(lease, as: error, kind: kind, now: now)
    }
    func requeue(
        _ lease: JobLease, notBefore: Int64, failure: ProcessingFailure?, refundAttempt: Bool, now: Int64
    ) async throws(CatalogError) {
        let first = requeues.withLock { count in
            count += 1
            return count == 1
        }
        switch fault {
        case .awayAtFirstRequeue where first:
            throw CatalogError(.unavailable, "requeue \(lease): connection reset by peer (scripted)")
        case let .takenOverAtFirstRequeue(other) where first:
            try await base.requeue(lease, notBefore: 0, failure: nil, refundAttempt: true, now: now)
            _ = try await base.claimNextJob(owner: other, now: now, leaseMilliseconds: 600_000)
            throw CatalogError(.unavailable, "requeue \(lease): connection reset by peer (scripted)")
        default:
            try await base.requeue(
                lease, notBefore: notBefore, failure: failure, refundAttempt: refundAttempt, now: now)
        }
    }
    func jobs(state: FeedJob.State) async throws(CatalogError) -> [FeedJob] { try await base.jobs(state: state) }
    func jobsHeld() async throws(CatalogError) -> [FeedJob] { try await base.jobsHeld() }
    func jobCounts() async throws(CatalogError) -> [FeedJob.State: Int] { try await base.jobCounts() }
    func waitForQueuedJob(upTo seconds: Double) async -> Bool { await base.waitForQueuedJob(upTo: seconds) }
    func publish(_ video: PublishedVideo, lease: JobLease, now: Int64) async throws(CatalogError) {
        try await base.publish(video, lease: lease, now: now)
    }
    func publish(_ image: PublishedImage, lease: JobLease, now: Int64) async throws(CatalogError) {
        try await base.publish(image, lease: lease, now: now)
    }
    func publishPlayable(_ video: PublishedVideo, lease: JobLease, now: Int64) async throws(CatalogError) {
        try await base.publishPlayable(video, lease: lease, now: now)
    }
    func videoStage(id: String) async throws(CatalogError) -> (stage: VideoStage, masterPath: String?)? {
        try await base.videoStage(id: id)
    }
    func finishDuplicate(_ lease: JobLease, of media: PublishedMedia, now: Int64) async throws(CatalogError) {
        try await base.finishDuplicate(lease, of: media, now: now)
    }
    func isPublished(mediaID: String) async throws(CatalogError) -> Bool {
        try await base.isPublished(mediaID: mediaID)
    }
}
