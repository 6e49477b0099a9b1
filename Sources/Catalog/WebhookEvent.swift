internal import Foundation
package import MediaModel

/// A state change an app hears about without polling (issue 65). Its body is made once, when the change commits, and
/// sent unchanged to every endpoint that asked for its kind, however many times a delivery is tried: the event id in
/// it is what a receiver de-duplicates by.
package struct WebhookEvent: Sendable, Equatable {
    package enum Kind: String, Sendable, CaseIterable, Codable {
        /// A provisional rendition plays while the ladder is made (issue 64).
        case playable = "video.playable"
        /// The whole ladder is in the feed; also a byte-identical upload pointed at an existing video.
        case published = "video.published"
        /// The upload is bad; a playable post was withdrawn.
        case rejected = "video.rejected"
        /// Reel or the machine failed and no attempt is left.
        case failed = "video.failed"
        case deleted = "video.deleted"
    }

    /// `evt_` and 24 random hex digits.
    package var id: String
    package var kind: Kind
    /// Unix milliseconds.
    package var createdAt: Int64
    /// The JSON a receiver gets.
    package var body: String

    package init(id: String, kind: Kind, createdAt: Int64, body: String) {
        self.id = id
        self.kind = kind
        self.createdAt = createdAt
        self.body = body
    }

    /// What an event says about its post. Absent fields are left out of the JSON.
    package struct Data: Sendable, Equatable, Codable {
        /// The post's id (a video id; a job's id is its post's).
        package var id: String
        package var jobID: String?
        package var videoURL: String?
        package var visibility: Visibility?
        package var durationMilliseconds: Int?
        package var width: Int?
        package var height: Int?
        /// A byte-identical upload: `id` is the video it pointed at, `jobID` the upload's job.
        package var duplicate: Bool?
        /// Rejected, failed or deleted: the stable code, as `/v1/jobs/{id}` says it (or a deletion's reason).
        package var reason: String?
        package var error: String?

        package init(id: String) { self.id = id }

        enum CodingKeys: String, CodingKey {
            case id, visibility, width, height, duplicate, reason, error
            case jobID = "job_id"
            case videoURL = "video_url"
            case durationMilliseconds = "duration_ms"
        }
    }

    /// The body's shape: `{"id", "type", "created_at", "data"}`.
    struct Envelope: Encodable {
        let id: String
        let type: String
        let createdAt: String
        let data: Data

        enum CodingKeys: String, CodingKey {
            case id, type, data
            case createdAt = "created_at"
        }
    }

    package init(_ kind: Kind, data: Data, now: Int64, id: String = WebhookEvent.newID()) {
        let envelope = Envelope(id: id, type: kind.rawValue, createdAt: Self.iso8601(now), data: data)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        // Strings, integers and booleans only: encoding cannot fail.
        let json = (try? encoder.encode(envelope)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
        self.init(id: id, kind: kind, createdAt: now, body: json)
    }

    package static func newID() -> String {
        var generator = SystemRandomNumberGenerator()
        let digits = Array("0123456789abcdef".utf8)
        return "evt_" + String(decoding: (0..<24).map { _ in digits[Int(generator.next() % 16)] }, as: UTF8.self)
    }

    /// `2026-12-06T07:30:00.123Z`.
    static func iso8601(_ milliseconds: Int64) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter.string(from: Date(timeIntervalSince1970: Double(milliseconds) / 1000))
    }
}

extension WebhookEvent {
    /// `video.playable` or `video.published` for a video a job put in the feed.
    package static func video(_ kind: Kind, _ video: PublishedVideo, jobID: String, now: Int64) -> WebhookEvent {
        var data = Data(id: video.id)
        data.jobID = jobID
        data.videoURL = "/v1/videos/\(video.id)"
        data.visibility = video.post.visibility
        data.durationMilliseconds = video.durationMilliseconds
        data.width = video.width
        data.height = video.height
        return WebhookEvent(kind, data: data, now: now)
    }

    /// `video.published` for an upload whose bytes are those of video `videoID`.
    package static func duplicate(jobID: String, of videoID: String, now: Int64) -> WebhookEvent {
        var data = Data(id: videoID)
        data.jobID = jobID
        data.videoURL = "/v1/videos/\(videoID)"
        data.duplicate = true
        return WebhookEvent(.published, data: data, now: now)
    }

    /// `video.rejected` or `video.failed` for job `jobID`, with the code and message `/v1/jobs/{id}` shows.
    package static func verdict(_ error: ProcessingError, jobID: String, now: Int64) -> WebhookEvent {
        var data = Data(id: jobID)
        data.jobID = jobID
        switch error {
        case let .rejected(rejection):
            data.reason = JobReason.rejected(rejection.reason).code
            data.error = rejection.message
            return WebhookEvent(.rejected, data: data, now: now)
        case let .failed(failure):
            data.reason = JobReason.failed(failure.reason).code
            data.error = failure.message
            return WebhookEvent(.failed, data: data, now: now)
        }
    }

    /// `video.deleted`: the id and the tombstone's reason, never the post's content.
    package static func deleted(id: String, reason: String, now: Int64) -> WebhookEvent {
        var data = Data(id: id)
        data.reason = reason
        return WebhookEvent(.deleted, data: data, now: now)
    }
}
