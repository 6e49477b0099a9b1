internal import FeedStore
internal import Foundation

/// One video as the JSON API shows it. Paths in the catalog are relative to the library; URLs are under `/media/`.
struct FeedItemBody: Encodable {
    struct Rendition: Encodable {
        let rung: String
        let width: Int
        let height: Int
        let bandwidth: Int
        let averageBandwidth: Int
        let codecs: String
        let segments: Int

        enum CodingKeys: String, CodingKey {
            case rung, width, height, bandwidth, codecs, segments
            case averageBandwidth = "average_bandwidth"
        }
    }

    let id: String
    let publishedAt: String
    let durationSeconds: Double
    let width: Int
    let height: Int
    let masterURL: String?
    let posterJPEGURL: String?
    let posterWebPURL: String?
    let renditions: [Rendition]

    enum CodingKeys: String, CodingKey {
        case id, width, height, renditions
        case publishedAt = "published_at"
        case durationSeconds = "duration_s"
        case masterURL = "master_url"
        case posterJPEGURL = "poster_jpeg_url"
        case posterWebPURL = "poster_webp_url"
    }

    init(_ video: FeedVideo) {
        id = video.id
        publishedAt = Self.timestamp(video.publishedAt)
        durationSeconds = Double(video.durationMilliseconds) / 1000
        width = video.width
        height = video.height
        masterURL = video.masterPath.map(MediaLibrary.url(forLibraryPath:))
        posterJPEGURL = video.posterJPEGPath.map(MediaLibrary.url(forLibraryPath:))
        posterWebPURL = video.posterWebPPath.map(MediaLibrary.url(forLibraryPath:))
        renditions = video.renditions.map {
            Rendition(rung: $0.rung, width: $0.width, height: $0.height, bandwidth: $0.bandwidth,
                      averageBandwidth: $0.averageBandwidth, codecs: $0.codecs, segments: $0.segments)
        }
    }

    /// RFC 3339 UTC with milliseconds.
    static func timestamp(_ milliseconds: Int64) -> String {
        let date = Date(timeIntervalSince1970: TimeInterval(milliseconds) / 1000)
        return date.formatted(.iso8601.year().month().day().dateSeparator(.dash).time(includingFractionalSeconds: true)
            .timeSeparator(.colon).timeZone(separator: .omitted))
    }
}

/// `GET /v1/feed`'s body.
struct FeedPageBody: Encodable {
    let items: [FeedItemBody]
    let nextCursor: String?

    enum CodingKeys: String, CodingKey {
        case items
        case nextCursor = "next_cursor"
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(items, forKey: .items)
        try container.encode(nextCursor, forKey: .nextCursor)  // null at the end, not absent
    }
}

/// `GET /v1/jobs/{id}`'s body.
struct JobBody: Encodable {
    let id: String
    let kind: String
    let state: String
    let progressPercent: Int
    let attempts: Int
    let error: String?
    let mediaID: String?
    let videoURL: String?

    enum CodingKeys: String, CodingKey {
        case id, kind, state, attempts, error
        case progressPercent = "progress_percent"
        case mediaID = "media_id"
        case videoURL = "video_url"
    }

    init(_ job: FeedJob) {
        id = job.id
        kind = job.kind.rawValue
        state = job.state.rawValue
        progressPercent = job.state == .published ? 100 : Int((min(max(job.progress, 0), 1) * 100).rounded(.down))
        attempts = job.attempts
        error = job.lastError
        mediaID = job.mediaID
        videoURL = job.kind == .video && job.state == .published ? job.mediaID.map { "/v1/videos/\($0)" } : nil
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(kind, forKey: .kind)
        try container.encode(state, forKey: .state)
        try container.encode(progressPercent, forKey: .progressPercent)
        try container.encode(attempts, forKey: .attempts)
        try container.encode(error, forKey: .error)
        try container.encode(mediaID, forKey: .mediaID)
        try container.encode(videoURL, forKey: .videoURL)
    }
}
