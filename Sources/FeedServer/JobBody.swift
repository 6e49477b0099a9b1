internal import Catalog
internal import MediaModel

/// `GET /v1/jobs/{id}`'s body.
struct JobBody: Encodable {
    let id: String
    let kind: String
    let state: String
    let progressPercent: Int
    let attempts: Int
    /// The machine-readable code (`too_large`, `disk_full`, `duplicate`, ...): what a client branches on.
    let reason: String?
    let error: String?
    let mediaID: String?
    let videoURL: String?
    /// A published video's loudness (`AudioLoudness`); absent otherwise, and for videos without audio.
    let loudness: AudioLoudness?

    enum CodingKeys: String, CodingKey {
        case id, kind, state, attempts, reason, error, loudness
        case progressPercent = "progress_percent"
        case mediaID = "media_id"
        case videoURL = "video_url"
    }

    init(_ job: FeedJob, loudness: AudioLoudness? = nil) {
        self.loudness = loudness
        id = job.id
        kind = job.kind.rawValue
        state = job.state.rawValue
        progressPercent = job.state == .published ? 100 : Int((min(max(job.progress, 0), 1) * 100).rounded(.down))
        attempts = job.attempts
        reason = job.reason?.code
        error = job.lastError
        mediaID = job.mediaID
        // A post is a video from the moment it plays (issue 64), before the job knows its kind for sure.
        videoURL =
            job.kind != .image && job.state != .rejected ? job.mediaID.map { "/v1/videos/\($0)" } : nil
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(kind, forKey: .kind)
        try container.encode(state, forKey: .state)
        try container.encode(progressPercent, forKey: .progressPercent)
        try container.encode(attempts, forKey: .attempts)
        try container.encode(reason, forKey: .reason)
        try container.encode(error, forKey: .error)
        try container.encode(mediaID, forKey: .mediaID)
        try container.encode(videoURL, forKey: .videoURL)
        try container.encodeIfPresent(loudness, forKey: .loudness)
    }
}
