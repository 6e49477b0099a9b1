/// Machine-readable reasons an upload is refused: the upload is bad, and another attempt would end the same way.
/// Reel's own failures are `FailureReason`s; the raw values are the stable codes in JSON and exit output.
public enum RejectionReason: String, Codable, Sendable, CaseIterable {
    case emptyFile = "empty_file"
    case tooLarge = "too_large"
    case notRegularFile = "not_regular_file"
    case unsupportedFormat = "unsupported_format"
    case forbiddenFormat = "forbidden_format"
    case probeFailed = "probe_failed"
    case truncated
    case decodeError = "decode_error"
    case noVideoStream = "no_video_stream"
    case dimensionsExceedLimit = "dimensions_exceed_limit"
    case pixelCountExceedsLimit = "pixel_count_exceeds_limit"
    case durationExceedsLimit = "duration_exceeds_limit"
    case durationBelowLimit = "duration_below_limit"
    case frameRateExceedsLimit = "frame_rate_exceeds_limit"
    case tooManyStreams = "too_many_streams"
    case unreadable
    /// The caption, title or creator given with the upload (its sidecar JSON) broke a limit or is not text.
    case invalidMetadata = "invalid_metadata"
}

/// An upload refused by the admission policy: the code, a sentence naming the limit and the actual value, and the file.
public struct Rejection: Error, Codable, Sendable, Equatable, CustomStringConvertible {
    public var reason: RejectionReason
    public var message: String
    public var path: String

    public init(_ reason: RejectionReason, _ message: String, path: String) {
        self.reason = reason
        self.message = message
        self.path = path
    }

    public var description: String { "\(path): \(reason.rawValue): \(message)" }
}
