package import MediaModel

/// Why a transcode did not publish: the upload was refused (admission's reasons), Reel's side failed, or it was
/// stopped on request.
package struct TranscodeError: Error, CustomStringConvertible, Sendable {
    package enum Kind: Sendable {
        case rejected(Rejection)
        case failed(ProcessingFailure)
        case cancelled
    }

    package let kind: Kind
    package let path: String

    package init(_ kind: Kind, path: String) {
        self.kind = kind
        self.path = path
    }

    /// A failure of Reel's side while working on `path`.
    init(_ reason: FailureReason, _ message: String, path: String, retryable: Bool? = nil) {
        self.init(.failed(ProcessingFailure(reason, message, path: path, retryable: retryable)), path: path)
    }

    /// The machine-readable code: a `RejectionReason`, a `FailureReason`, or `cancelled`.
    package var code: String { processingError.code }

    package var message: String { processingError.message }

    /// The shared error model's view: cancellation is a retryable failure.
    package var processingError: ProcessingError {
        switch kind {
        case let .rejected(rejection): .rejected(rejection)
        case let .failed(failure): .failed(failure)
        case .cancelled:
            .failed(
                ProcessingFailure(
                    .cancelled, "interrupted before the output was complete; nothing was written", path: path))
        }
    }

    package var description: String { "\(path): \(code): \(message)" }
}
