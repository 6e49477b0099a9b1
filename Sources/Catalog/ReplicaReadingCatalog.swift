package import MediaModel
package import ViewerAnalytics

/// A catalog whose feed reads go to a read replica (`--database-read`) while everything else — uploads, jobs,
/// publishing, and job status, which a client polls right after uploading — goes to the primary. The feed may lag
/// the primary by the replica's delay; its ETags follow the replica's own generation, so they stay consistent.
package struct ReplicaReadingCatalog: CatalogRoles, CatalogSeeding {
    package let primary: any CatalogRoles & CatalogSeeding
    /// Only the feed's reads: a replica is read-only.
    package let feedReader: any FeedReading

    package init(primary: any CatalogRoles & CatalogSeeding, feedReader: any FeedReading) {
        self.primary = primary
        self.feedReader = feedReader
    }

    // MARK: FeedReading, from the replica

    package var synchronousFeed: (any SynchronousFeed)? { feedReader.synchronousFeed }

    package func pageWithGeneration(
        limit: Int, after cursor: FeedPosition?
    ) async throws(CatalogError)
        -> (page: FeedPage, generation: Int64)
    {
        try await feedReader.pageWithGeneration(limit: limit, after: cursor)
    }
    package func generation() async throws(CatalogError) -> Int64 { try await feedReader.generation() }
    package func item(id: String) async throws(CatalogError) -> FeedItem? { try await feedReader.item(id: id) }
    package func video(id: String) async throws(CatalogError) -> FeedVideo? { try await feedReader.video(id: id) }
    package func publishedVideoIDs(among ids: [String]) async throws(CatalogError) -> Set<String> {
        try await feedReader.publishedVideoIDs(among: ids)
    }
    package func publishedVideos() async throws(CatalogError) -> [FeedVideo] { try await feedReader.publishedVideos() }
    package func videoCount() async throws(CatalogError) -> Int { try await feedReader.videoCount() }
    /// Both must answer: the feed needs the replica, uploads the primary.
    package func ping() async throws(CatalogError) {
        try await feedReader.ping()
        try await primary.ping()
    }

    // MARK: JobQueue, on the primary

    package func job(id: String) async throws(CatalogError) -> FeedJob? { try await primary.job(id: id) }
    package func insertJob(
        id: String, sourceName: [UInt8], bytes: Int, post: PostFacts, owner: String, now: Int64,
        leaseMilliseconds: Int64
    ) async throws(CatalogError) {
        try await primary.insertJob(
            id: id, sourceName: sourceName, bytes: bytes, post: post, owner: owner, now: now,
            leaseMilliseconds: leaseMilliseconds)
    }
    package func deleteJob(_ lease: JobLease) async throws(CatalogError) { try await primary.deleteJob(lease) }
    package func release(_ lease: JobLease, now: Int64) async throws(CatalogError) {
        try await primary.release(lease, now: now)
    }
    package func claimNextJob(
        owner: String, now: Int64,
        leaseMilliseconds: Int64
    ) async throws(CatalogError) -> FeedJob? {
        try await primary.claimNextJob(owner: owner, now: now, leaseMilliseconds: leaseMilliseconds)
    }
    package func renewLease(_ lease: JobLease, until: Int64, now: Int64) async throws(CatalogError) -> Bool {
        try await primary.renewLease(lease, until: until, now: now)
    }
    package func setJobFacts(
        _ lease: JobLease, kind: FeedJob.Kind?, contentHash: String?,
        now: Int64
    ) async throws(CatalogError) {
        try await primary.setJobFacts(lease, kind: kind, contentHash: contentHash, now: now)
    }
    package func setJobProgress(_ lease: JobLease, progress: Double, now: Int64) async throws(CatalogError) {
        try await primary.setJobProgress(lease, progress: progress, now: now)
    }
    package func finishJob(
        _ lease: JobLease, as error: ProcessingError, kind: FeedJob.Kind?,
        now: Int64
    ) async throws(CatalogError) {
        try await primary.finishJob(lease, as: error, kind: kind, now: now)
    }
    package func requeue(
        _ lease: JobLease, notBefore: Int64, failure: ProcessingFailure?, refundAttempt: Bool,
        now: Int64
    ) async throws(CatalogError) {
        try await primary.requeue(lease, notBefore: notBefore, failure: failure, refundAttempt: refundAttempt, now: now)
    }
    package func jobs(state: FeedJob.State) async throws(CatalogError) -> [FeedJob] {
        try await primary.jobs(state: state)
    }
    package func jobsHeld() async throws(CatalogError) -> [FeedJob] { try await primary.jobsHeld() }
    package func jobCounts() async throws(CatalogError) -> [FeedJob.State: Int] { try await primary.jobCounts() }
    package func waitForQueuedJob(upTo seconds: Double) async -> Bool { await primary.waitForQueuedJob(upTo: seconds) }

    // MARK: Publishing and CatalogSeeding, on the primary

    package func publish(_ video: PublishedVideo, lease: JobLease, now: Int64) async throws(CatalogError) {
        try await primary.publish(video, lease: lease, now: now)
    }
    package func publish(_ image: PublishedImage, lease: JobLease, now: Int64) async throws(CatalogError) {
        try await primary.publish(image, lease: lease, now: now)
    }
    package func publishPlayable(_ video: PublishedVideo, lease: JobLease, now: Int64) async throws(CatalogError) {
        try await primary.publishPlayable(video, lease: lease, now: now)
    }
    package func videoStage(id: String) async throws(CatalogError) -> (stage: VideoStage, masterPath: String?)? {
        try await primary.videoStage(id: id)
    }
    package func finishDuplicate(_ lease: JobLease, of media: PublishedMedia, now: Int64) async throws(CatalogError) {
        try await primary.finishDuplicate(lease, of: media, now: now)
    }
    package func publishedMedia(contentHash: String) async throws(CatalogError) -> PublishedMedia? {
        try await primary.publishedMedia(contentHash: contentHash)
    }
    package func isDeleted(id: String) async throws(CatalogError) -> Bool { try await primary.isDeleted(id: id) }
    package func isPublished(mediaID: String) async throws(CatalogError) -> Bool {
        try await primary.isPublished(mediaID: mediaID)
    }
    package func publish(_ video: PublishedVideo) async throws(CatalogError) { try await primary.publish(video) }
    package func seed(count: Int, startingAt start: Int, batch: Int) async throws(CatalogError) {
        try await primary.seed(count: count, startingAt: start, batch: batch)
    }

    // MARK: TokenRegistry and UploadLedger, on the primary

    package func createToken(_ token: UploadToken) async throws(CatalogError) { try await primary.createToken(token) }
    package func tokens() async throws(CatalogError) -> [UploadToken] { try await primary.tokens() }
    package func token(hash: String) async throws(CatalogError) -> UploadToken? { try await primary.token(hash: hash) }
    package func revokeToken(_ nameOrID: String, now: Int64) async throws(CatalogError) -> UploadToken? {
        try await primary.revokeToken(nameOrID, now: now)
    }
    package func setTokenLimits(
        _ nameOrID: String, rateLimit: Double?, quota: UploadQuota
    ) async throws(CatalogError) -> UploadToken? {
        try await primary.setTokenLimits(nameOrID, rateLimit: rateLimit, quota: quota)
    }
    package func createUpload(
        _ upload: UploadRecord, within quota: UploadQuota
    ) async throws(CatalogError) -> UploadQuota.Refusal? {
        try await primary.createUpload(upload, within: quota)
    }
    package func upload(id: String) async throws(CatalogError) -> UploadRecord? { try await primary.upload(id: id) }
    package func advanceUpload(
        id: String, from: Int64, to received: Int64, expiresAt: Int64,
        now: Int64
    ) async throws(CatalogError) -> Bool {
        try await primary.advanceUpload(id: id, from: from, to: received, expiresAt: expiresAt, now: now)
    }
    package func deleteUpload(id: String) async throws(CatalogError) { try await primary.deleteUpload(id: id) }
    package func expiredUploads(now: Int64) async throws(CatalogError) -> [UploadRecord] {
        try await primary.expiredUploads(now: now)
    }
    package func assignUploadJob(id: String, jobID: String, now: Int64) async throws(CatalogError) {
        try await primary.assignUploadJob(id: id, jobID: jobID, now: now)
    }
    package func finishUpload(
        id: String, jobID: String, sourceName: [UInt8], bytes: Int64, post: PostFacts,
        now: Int64
    ) async throws(CatalogError) {
        try await primary.finishUpload(
            id: id, jobID: jobID, sourceName: sourceName, bytes: bytes, post: post, now: now)
    }

    // MARK: ViewerEventLog, on the primary: events are writes, and their figures are read with them.

    package func appendViewerEvents(_ events: [ReceivedViewerEvent]) async throws(CatalogError) {
        try await primary.appendViewerEvents(events)
    }
    package func viewerEvents(
        after: Int64, through: Int64, limit: Int
    ) async throws(CatalogError)
        -> [StoredViewerEvent]
    {
        try await primary.viewerEvents(after: after, through: through, limit: limit)
    }
    package func deleteViewerEvents(receivedBefore: Int64) async throws(CatalogError) -> Int {
        try await primary.deleteViewerEvents(receivedBefore: receivedBefore)
    }
    package func replaceVideoStats(_ stats: [VideoStats], rolledAt: Int64) async throws(CatalogError) {
        try await primary.replaceVideoStats(stats, rolledAt: rolledAt)
    }
    package func videoStats(video: String) async throws(CatalogError) -> VideoStats? {
        try await primary.videoStats(video: video)
    }
    package func allVideoStats() async throws(CatalogError) -> [VideoStats] { try await primary.allVideoStats() }

    // MARK: FeedRanking, on the primary: a ranking just stored, or a video it names, may not be on a replica yet,
    // and a cursor's page would then skip it.

    package func rankingCandidates() async throws(CatalogError) -> [EngagingOrder.Candidate] {
        try await primary.rankingCandidates()
    }
    package func storeRanking(_ videos: [String], madeAt: Int64) async throws(CatalogError) -> Int64 {
        try await primary.storeRanking(videos, madeAt: madeAt)
    }
    package func latestRankingNumber() async throws(CatalogError) -> Int64? { try await primary.latestRankingNumber() }
    package func ranking(number: Int64) async throws(CatalogError) -> StoredRanking? {
        try await primary.ranking(number: number)
    }
    package func deleteRankings(madeBefore: Int64) async throws(CatalogError) -> Int {
        try await primary.deleteRankings(madeBefore: madeBefore)
    }
    package func publishedItems(ids: [String]) async throws(CatalogError) -> [String: FeedItem] {
        try await primary.publishedItems(ids: ids)
    }

    // MARK: PostRemoval, on the primary: a deletion is read back where it was written

    package func uploaderTokenID(ofVideo id: String) async throws(CatalogError) -> String? {
        try await primary.uploaderTokenID(ofVideo: id)
    }
    package func removePost(id: String, reason: String, now: Int64) async throws(CatalogError) -> PostRemovalOutcome {
        try await primary.removePost(id: id, reason: reason, now: now)
    }
    package func tombstone(id: String) async throws(CatalogError) -> Tombstone? { try await primary.tombstone(id: id) }
    package func tombstonesAwaitingMedia(limit: Int) async throws(CatalogError) -> [Tombstone] {
        try await primary.tombstonesAwaitingMedia(limit: limit)
    }
    package func markMediaRemoved(id: String, now: Int64) async throws(CatalogError) {
        try await primary.markMediaRemoved(id: id, now: now)
    }
    package func purgeTombstones(deletedBefore: Int64) async throws(CatalogError) -> Int {
        try await primary.purgeTombstones(deletedBefore: deletedBefore)
    }

    // MARK: PostAccess, on the primary: a revocation holds at once

    package func videoAccess(id: String) async throws(CatalogError) -> VideoAccess? {
        try await primary.videoAccess(id: id)
    }
    package func setVisibility(
        id: String, to visibility: Visibility, revokingLinks: Bool, now: Int64
    ) async throws(CatalogError) -> VideoAccess? {
        try await primary.setVisibility(id: id, to: visibility, revokingLinks: revokingLinks, now: now)
    }

    // MARK: WebhookOutbox, on the primary: leases are writes

    package func addWebhookEndpoint(_ endpoint: WebhookEndpoint) async throws(CatalogError) {
        try await primary.addWebhookEndpoint(endpoint)
    }
    package func webhookEndpoints() async throws(CatalogError) -> [WebhookEndpointStatus] {
        try await primary.webhookEndpoints()
    }
    package func rotateWebhookSecret(
        id: String, to secret: String, keepingPreviousUntil: Int64
    ) async throws(CatalogError) -> Bool {
        try await primary.rotateWebhookSecret(id: id, to: secret, keepingPreviousUntil: keepingPreviousUntil)
    }
    package func removeWebhookEndpoint(id: String) async throws(CatalogError) -> Bool {
        try await primary.removeWebhookEndpoint(id: id)
    }
    package func leaseWebhookDeliveries(
        owner: String, now: Int64, leaseMilliseconds: Int64, limit: Int
    ) async throws(CatalogError) -> [WebhookDelivery] {
        try await primary.leaseWebhookDeliveries(
            owner: owner, now: now, leaseMilliseconds: leaseMilliseconds, limit: limit)
    }
    package func settleWebhookDelivery(
        _ delivery: WebhookDelivery, _ outcome: WebhookDelivery.Outcome, now: Int64
    ) async throws(CatalogError) -> Bool {
        try await primary.settleWebhookDelivery(delivery, outcome, now: now)
    }
    package func nextWebhookDue() async throws(CatalogError) -> Int64? { try await primary.nextWebhookDue() }
    package func purgeWebhookDeliveries(settledBefore: Int64) async throws(CatalogError) -> Int {
        try await primary.purgeWebhookDeliveries(settledBefore: settledBefore)
    }
}
