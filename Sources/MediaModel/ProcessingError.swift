/// How any stage (admission, transcode, image conversion, a job) ends when it does not succeed: the upload was
/// refused, or Reel failed. Deciding which happens where the error is raised, never by reading messages later.
public enum ProcessingError: Error, Sendable, Equatable, CustomStringConvertible {
    case rejected(Rejection)
    case failed(ProcessingFailure)

    /// The stable code: a `RejectionReason` or `FailureReason` raw value.
    public var code: String {
        switch self {
        case let .rejected(rejection): rejection.reason.rawValue
        case let .failed(failure): failure.reason.rawValue
        }
    }

    public var message: String {
        switch self {
        case let .rejected(rejection): rejection.message
        case let .failed(failure): failure.message
        }
    }

    public var path: String {
        switch self {
        case let .rejected(rejection): rejection.path
        case let .failed(failure): failure.path
        }
    }

    public var description: String {
        switch self {
        case let .rejected(rejection): rejection.description
        case let .failed(failure): failure.description
        }
    }
}

extension ProcessingError: Codable {
    /// Encoded flat, as the underlying `Rejection` or `ProcessingFailure` is: a failure is the one with `retryable`.
    public init(from decoder: any Decoder) throws {
        if let failure = try? ProcessingFailure(from: decoder) {
            self = .failed(failure)
        } else {
            self = .rejected(try Rejection(from: decoder))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        switch self {
        case let .rejected(rejection): try rejection.encode(to: encoder)
        case let .failed(failure): try failure.encode(to: encoder)
        }
    }
}

extension ProcessingError {
    /// The rejection, when the upload was refused.
    public var rejection: Rejection? {
        if case let .rejected(rejection) = self { rejection } else { nil }
    }

    /// The failure, when Reel failed.
    public var failure: ProcessingFailure? {
        if case let .failed(failure) = self { failure } else { nil }
    }
}
