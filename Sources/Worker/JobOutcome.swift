package import ChatImages
package import MediaModel
package import Sandbox
package import Transcode

/// What a job process leaves in its staging directory (`outcome.json`) for the worker to publish or record:
/// the outputs' description when it succeeded, otherwise the rejection or failure.
package struct JobOutcome: Codable, Sendable {
    package var kind: MediaKind?
    /// nil when the outputs are ready to publish.
    package var error: ProcessingError?
    package var info: MediaInfo?
    package var video: TranscodeSummary?
    package var image: ChatImageResult?
    /// The protections the job ran under, as it set them up; nil when it never got that far.
    package var sandbox: SandboxReport?
    /// CPU seconds of the job process, all its threads, up to its outcome (a forked job's clock starts at the fork).
    package var cpuSeconds: Double?

    package init(
        kind: MediaKind? = nil, error: ProcessingError? = nil, info: MediaInfo? = nil, video: TranscodeSummary? = nil,
        image: ChatImageResult? = nil
    ) {
        self.kind = kind
        self.error = error
        self.info = info
        self.video = video
        self.image = image
    }

    /// The exit code that says the same as this outcome.
    package var exitCode: Int32 {
        switch error {
        case nil: JobInvocation.ExitCode.published
        case .rejected: JobInvocation.ExitCode.rejected
        case let .failed(failure): failure.retryable ? JobInvocation.ExitCode.retryable : JobInvocation.ExitCode.failed
        }
    }
}
