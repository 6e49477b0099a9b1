package import MediaModel

/// The job queue as workers run it: intake, claims, leases, progress, verdicts, retries and recovery.
///
/// Jobs are fenced. A claim raises the job's epoch and sets a lease expiry; every later transition names the lease it
/// holds (`JobLease`: id, epoch, owner) and fails with `CatalogError.Kind.leaseLost`, changing nothing, once the job
/// was taken over or ended. So a worker whose lease expired can never publish.
package protocol JobQueue: JobStatusReading {
    /// A queued job for an upload `owner` is about to move out of the inbox, held (epoch 0) until it is released.
    /// `post` is what the upload said about its post (an inbox file's sidecar), stored on the video it becomes.
    func insertJob(
        id: String, sourceName: [UInt8], bytes: Int, post: PostFacts, owner: String, now: Int64,
        leaseMilliseconds: Int64) async throws(CatalogError)
    /// Removes a job still held from intake (the move out of the inbox failed).
    func deleteJob(_ lease: JobLease) async throws(CatalogError)
    /// Lets any worker claim a queued job held from intake.
    func release(_ lease: JobLease, now: Int64) async throws(CatalogError)
    /// Takes the oldest due queued job for `owner`, raising its epoch, with a lease until `now + leaseMilliseconds`.
    func claimNextJob(owner: String, now: Int64, leaseMilliseconds: Int64) async throws(CatalogError) -> FeedJob?
    /// Extends a held lease to `until`. - Returns: false when the lease is no longer held (taken over or ended).
    func renewLease(_ lease: JobLease, until: Int64, now: Int64) async throws(CatalogError) -> Bool
    func setJobFacts(
        _ lease: JobLease, kind: FeedJob.Kind?, contentHash: String?,
        now: Int64) async throws(CatalogError)
    func setJobProgress(_ lease: JobLease, progress: Double, now: Int64) async throws(CatalogError)
    /// Rejected (the upload is bad) or failed (Reel or the machine failed, and no attempt is left).
    func finishJob(
        _ lease: JobLease, as error: ProcessingError, kind: FeedJob.Kind?,
        now: Int64) async throws(CatalogError)
    /// Back to the queue, due at `notBefore`; with `refundAttempt` the attempt does not count.
    func requeue(
        _ lease: JobLease, notBefore: Int64, failure: ProcessingFailure?, refundAttempt: Bool,
        now: Int64) async throws(CatalogError)
    func jobs(state: FeedJob.State) async throws(CatalogError) -> [FeedJob]
    /// Jobs some worker holds: for recovery when that worker died or its lease expired.
    func jobsHeld() async throws(CatalogError) -> [FeedJob]
    func jobCounts() async throws(CatalogError) -> [FeedJob.State: Int]
    /// Returns when a job may have become claimable (PostgreSQL: `LISTEN`), or after `seconds` at the latest.
    /// - Returns: true when the caller should look at the queue now; false when nothing was announced (the engine
    ///   notifies, so there is no need to query the table).
    func waitForQueuedJob(upTo seconds: Double) async -> Bool
}

extension JobQueue {
    /// A job for an upload that said nothing about its post.
    package func insertJob(
        id: String, sourceName: [UInt8], bytes: Int, owner: String, now: Int64, leaseMilliseconds: Int64
    ) async throws(CatalogError) {
        try await insertJob(
            id: id, sourceName: sourceName, bytes: bytes, post: PostFacts(), owner: owner, now: now,
            leaseMilliseconds: leaseMilliseconds)
    }

    package func finishJob(_ lease: JobLease, as error: ProcessingError, now: Int64) async throws(CatalogError) {
        try await finishJob(lease, as: error, kind: nil, now: now)
    }

    package func setJobFacts(_ lease: JobLease, contentHash: String, now: Int64) async throws(CatalogError) {
        try await setJobFacts(lease, kind: nil, contentHash: contentHash, now: now)
    }
}
