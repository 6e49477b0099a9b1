public import MediaModel
public import Transcode
public import ChatImages

/// What a job process leaves in its staging directory (`outcome.json`) for the worker to publish or record.
public struct JobOutcome: Codable, Sendable {
    public enum Status: String, Codable, Sendable {
        case published, rejected, failed
    }

    public var status: Status
    public var kind: MediaKind?
    /// The machine-readable reason (admission's codes, `transcode_failed`, `output_failed`, ...).
    public var reason: String?
    public var message: String?
    /// A failure that may pass on another attempt (I/O, disk full).
    public var retryable: Bool
    public var info: MediaInfo?
    public var video: TranscodeSummary?
    public var image: ChatImageResult?

    public init(status: Status, kind: MediaKind? = nil, reason: String? = nil, message: String? = nil, retryable: Bool = false,
                info: MediaInfo? = nil, video: TranscodeSummary? = nil, image: ChatImageResult? = nil) {
        self.status = status
        self.kind = kind
        self.reason = reason
        self.message = message
        self.retryable = retryable
        self.info = info
        self.video = video
        self.image = image
    }

    /// The job process's exit codes, beside the outcome file.
    public enum ExitCode {
        public static let published: Int32 = 0
        public static let rejected: Int32 = 65
        public static let failed: Int32 = 70
        public static let retryable: Int32 = 75
    }
}
