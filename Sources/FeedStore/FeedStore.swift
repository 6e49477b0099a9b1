public import MediaModel

/// The catalog, on whichever engine holds it: SQLite (`SQLiteFeedStore`, the embedded default) or PostgreSQL
/// (`PostgresCatalog.PostgresFeedStore`, for many hosts). One conformance suite runs unchanged against both. Every
/// failure arrives as a `CatalogError`. Every engine answers off the concurrency pool: SQLite through GRDB's async
/// access (its own dispatch queues), PostgreSQL over the network.
///
/// Jobs are fenced. A claim raises the job's epoch and sets a lease expiry; every later transition names the lease it
/// holds (`JobLease`: id, epoch, owner) and fails with `CatalogError.Kind.leaseLost`, changing nothing, once the job
/// was taken over or ended. So a worker whose lease expired can never publish.
public protocol FeedStore: Sendable {
    // MARK: The feed

    /// A page (newest first, `limit` 1...50 items after `cursor`) and the catalog generation it belongs to.
    func pageWithGeneration(limit: Int, after cursor: FeedCursor?) async throws(CatalogError) -> (page: FeedPage, generation: Int64)
    /// A number that changes in every transaction that changes the feed.
    func generation() async throws(CatalogError) -> Int64
    /// A published video's feed item, as the feed shows it, or nil.
    func item(id: String) async throws(CatalogError) -> FeedItem?
    /// A published video with its renditions, or nil.
    func video(id: String) async throws(CatalogError) -> FeedVideo?
    /// Every published video, newest first (the prefetch simulator's catalog).
    func publishedVideos() async throws(CatalogError) -> [FeedVideo]
    func videoCount() async throws(CatalogError) -> Int
    /// One trivial read: the catalog answers (`/healthz`).
    func ping() async throws(CatalogError)
    /// Blocking reads for the feed's event-loop fast path, when the engine has them without a network round trip.
    var synchronousFeed: (any SynchronousFeed)? { get }
    /// Pages read from an event loop without leaving it, when the engine reads over the network (PostgreSQL).
    var eventLoopFeed: (any EventLoopFeed)? { get }

    // MARK: Jobs

    func job(id: String) async throws(CatalogError) -> FeedJob?
    /// A queued job for an upload `owner` is about to move out of the inbox, held (epoch 0) until it is released.
    func insertJob(id: String, sourceName: [UInt8], bytes: Int, owner: String, now: Int64, leaseMilliseconds: Int64) async throws(CatalogError)
    /// Removes a job still held from intake (the move out of the inbox failed).
    func deleteJob(_ lease: JobLease) async throws(CatalogError)
    /// Lets any worker claim a queued job held from intake.
    func release(_ lease: JobLease, now: Int64) async throws(CatalogError)
    /// Takes the oldest due queued job for `owner`, raising its epoch, with a lease until `now + leaseMilliseconds`.
    func claimNextJob(owner: String, now: Int64, leaseMilliseconds: Int64) async throws(CatalogError) -> FeedJob?
    /// Extends a held lease to `until`. - Returns: false when the lease is no longer held (taken over or ended).
    func renewLease(_ lease: JobLease, until: Int64, now: Int64) async throws(CatalogError) -> Bool
    func setJobFacts(_ lease: JobLease, kind: FeedJob.Kind?, contentHash: String?, now: Int64) async throws(CatalogError)
    func setJobProgress(_ lease: JobLease, progress: Double, now: Int64) async throws(CatalogError)
    /// Rejected (the upload is bad) or failed (Reel or the machine failed, and no attempt is left).
    func finishJob(_ lease: JobLease, as error: ProcessingError, kind: FeedJob.Kind?, now: Int64) async throws(CatalogError)
    /// Back to the queue, due at `notBefore`; with `refundAttempt` the attempt does not count.
    func requeue(_ lease: JobLease, notBefore: Int64, failure: ProcessingFailure?, refundAttempt: Bool, now: Int64) async throws(CatalogError)
    func jobs(state: FeedJob.State) async throws(CatalogError) -> [FeedJob]
    /// Jobs some worker holds: for recovery when that worker died or its lease expired.
    func jobsHeld() async throws(CatalogError) -> [FeedJob]
    func jobCounts() async throws(CatalogError) -> [FeedJob.State: Int]
    /// Returns when a job may have become claimable (PostgreSQL: `LISTEN`), or after `seconds` at the latest.
    /// - Returns: true when the caller should look at the queue now; false when nothing was announced (the engine
    ///   notifies, so there is no need to query the table).
    func waitForQueuedJob(upTo seconds: Double) async -> Bool

    // MARK: Publishing

    /// A video outside any job (tests, imports).
    func publish(_ video: PublishedVideo) async throws(CatalogError)
    /// The video row(s) and the job's `published` state in one transaction, only while `lease` is held.
    func publish(_ video: PublishedVideo, lease: JobLease, now: Int64) async throws(CatalogError)
    func publish(_ image: PublishedImage, lease: JobLease, now: Int64) async throws(CatalogError)
    /// A byte-identical upload of something already published: the job points at the existing media.
    func finishDuplicate(_ lease: JobLease, of media: PublishedMedia, now: Int64) async throws(CatalogError)
    func publishedMedia(contentHash: String) async throws(CatalogError) -> PublishedMedia?
    func isPublished(mediaID: String) async throws(CatalogError) -> Bool
    /// `count` synthetic published videos, for tests and benchmarks.
    func seed(count: Int, startingAt start: Int, batch: Int) async throws(CatalogError)

    // MARK: Tokens and uploads

    func createToken(_ token: UploadToken) async throws(CatalogError)
    func tokens() async throws(CatalogError) -> [UploadToken]
    func token(hash: String) async throws(CatalogError) -> UploadToken?
    func revokeToken(_ nameOrID: String, now: Int64) async throws(CatalogError) -> UploadToken?
    func createUpload(_ upload: UploadRecord) async throws(CatalogError)
    func upload(id: String) async throws(CatalogError) -> UploadRecord?
    func advanceUpload(id: String, from: Int64, to received: Int64, expiresAt: Int64, now: Int64) async throws(CatalogError) -> Bool
    func deleteUpload(id: String) async throws(CatalogError)
    func expiredUploads(now: Int64) async throws(CatalogError) -> [UploadRecord]
    func assignUploadJob(id: String, jobID: String, now: Int64) async throws(CatalogError)
    func finishUpload(id: String, jobID: String, sourceName: [UInt8], bytes: Int64, now: Int64) async throws(CatalogError)
}

/// The feed's reads without suspension, for a caller on an event loop (SQLite in WAL mode answers in microseconds).
public protocol SynchronousFeed: Sendable {
    /// False when only the generation is known in-process and pages need the engine's round trip.
    var readsPages: Bool { get }
    func generation() throws(CatalogError) -> Int64
    func pageWithGeneration(limit: Int, after cursor: FeedCursor?) throws(CatalogError) -> (page: FeedPage, generation: Int64)
}

/// What a job holder proves on every transition: the job, the epoch of its claim, and its owner token.
public struct JobLease: Sendable, Hashable, CustomStringConvertible {
    public var id: String
    public var epoch: Int64
    public var owner: String

    public init(id: String, epoch: Int64, owner: String) {
        self.id = id
        self.epoch = epoch
        self.owner = owner
    }

    public var description: String { "job \(id) at epoch \(epoch) held by \(owner)" }
}

/// The feed's page size bound, the same on every engine.
public enum FeedLimits {
    public static let maximumPageSize = 50
}

extension FeedStore {
    public func finishJob(_ lease: JobLease, as error: ProcessingError, now: Int64) async throws(CatalogError) {
        try await finishJob(lease, as: error, kind: nil, now: now)
    }

    public func setJobFacts(_ lease: JobLease, contentHash: String, now: Int64) async throws(CatalogError) {
        try await setJobFacts(lease, kind: nil, contentHash: contentHash, now: now)
    }
}
