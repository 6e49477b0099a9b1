package import MediaModel

/// A worker job as `GET /v1/jobs/{id}` reports it: clients poll it while an upload is processing.
package struct FeedJob: Sendable, Equatable {
    package enum State: String, Sendable, CaseIterable {
        case queued, processing, published, rejected, failed
    }

    package enum Kind: String, Sendable, CaseIterable {
        /// Not yet admitted: the bytes decide, never the name.
        case unknown, video, image
    }

    package var id: String
    package var kind: Kind
    package var state: State
    package var attempts: Int
    /// Why the job ended, or why its last attempt failed (`too_large`, `timeout`, `crashed`, `duplicate`, ...).
    package var reason: JobReason?
    package var lastError: String?
    /// 0...1.
    package var progress: Double
    package var createdAt: Int64
    package var updatedAt: Int64
    /// The published video or image, once there is one.
    package var mediaID: String?
    /// The upload's name as the inbox had it: raw bytes, which need not be UTF-8.
    package var sourceName: [UInt8] = []
    package var owner: String?
    package var contentHash: String?
    /// Raised by every claim: the fencing token a holder proves (see `JobLease`). 0 until first claimed.
    package var epoch: Int64 = 0
    /// When the holder's lease ends unless renewed (unix milliseconds); nil when nobody holds the job.
    package var leaseExpiresAt: Int64?
    /// What the upload said about its post: the video gets it when it is published.
    package var post = PostFacts()

    /// The lease this job's holder proves; its owner is empty when nobody holds it (so nothing matches).
    package var lease: JobLease { JobLease(id: id, epoch: epoch, owner: owner ?? "") }

    package init(
        id: String, kind: Kind, state: State, attempts: Int, reason: JobReason? = nil, lastError: String?,
        progress: Double,
        createdAt: Int64, updatedAt: Int64, mediaID: String?
    ) {
        self.reason = reason
        self.id = id
        self.kind = kind
        self.state = state
        self.attempts = attempts
        self.lastError = lastError
        self.progress = progress
        self.createdAt = createdAt
        self.updatedAt = updatedAt
        self.mediaID = mediaID
    }
}
