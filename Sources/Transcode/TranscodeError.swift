public import MediaModel

/// Why a transcode did not publish: the upload was refused (admission's reasons), or Reel's side failed.
public struct TranscodeError: Error, CustomStringConvertible, Sendable {
    public enum Kind: Sendable {
        case rejected(Rejection)
        /// A libav or file-system call failed; `retryable` when the cause may pass (I/O, disk full).
        case failed(call: String, message: String, retryable: Bool)
        case cancelled
    }

    public let kind: Kind
    public let path: String

    public init(_ kind: Kind, path: String) {
        self.kind = kind
        self.path = path
    }

    /// The machine-readable code: admission's reason, `transcode_failed`, or `cancelled`.
    public var code: String {
        switch kind {
        case let .rejected(rejection): rejection.reason.rawValue
        case .failed: "transcode_failed"
        case .cancelled: "cancelled"
        }
    }

    public var message: String {
        switch kind {
        case let .rejected(rejection): rejection.message
        case let .failed(call, message, _): "\(call) failed: \(message)"
        case .cancelled: "interrupted before the output was complete; nothing was written"
        }
    }

    public var description: String { "\(path): \(code): \(message)" }
}
