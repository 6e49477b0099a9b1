internal import FeedStore
internal import Foundation
#if canImport(Glibc)
internal import Glibc
#endif

/// One video as the JSON API shows it. Paths in the catalog are relative to the library; URLs are under `/media/`.
enum FeedItemBody {
    static func write(_ video: FeedVideo, to json: inout JSONWriter) {
        json.object { json in
            json.key("id"); json.string(video.id)
            json.key("published_at"); json.timestamp(milliseconds: video.publishedAt)
            json.key("duration_s"); json.milliseconds(asSeconds: video.durationMilliseconds)
            json.key("width"); json.int(video.width)
            json.key("height"); json.int(video.height)
            json.key("master_url"); json.mediaURL(video.masterPath)
            json.key("poster_jpeg_url"); json.mediaURL(video.posterJPEGPath)
            json.key("poster_webp_url"); json.mediaURL(video.posterWebPPath)
            json.key("renditions"); json.raw(video.renditionsJSON)  // already JSON, rendered by SQLite
        }
    }

    static func json(_ video: FeedVideo) -> [UInt8] {
        var json = JSONWriter(capacity: 1024)
        write(video, to: &json)
        return json.bytes
    }

    /// `GET /v1/feed`'s body: `{"items": [...], "next_cursor": "..." | null}`.
    static func json(_ page: FeedPage) -> [UInt8] {
        var json = JSONWriter(capacity: 700 * max(1, page.items.count))
        json.object { json in
            json.key("items")
            json.array { json in
                for video in page.items { write(video, to: &json) }
            }
            json.key("next_cursor"); json.string(page.nextCursor?.encoded)
        }
        return json.bytes
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
