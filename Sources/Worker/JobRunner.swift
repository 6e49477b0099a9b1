public import Ingest
public import Transcode
public import ChatImages
internal import MediaModel
internal import FileSystem
internal import Foundation

/// The job process (`reel worker-job`): admits one upload and transcodes or converts it into a staging directory,
/// under resource limits it sets on itself first. It never touches the catalog; the worker publishes.
public struct JobRunner: Sendable {
    public var policy: AdmissionPolicy
    public var ladder: LadderPreset
    public var imageQuality: ImageQuality

    public init(policy: AdmissionPolicy, ladder: LadderPreset, imageQuality: ImageQuality = .high) {
        self.policy = policy
        self.ladder = ladder
        self.imageQuality = imageQuality
    }

    /// Files inside `staging`: `media/` (a video's ladder) or `media.webp`, `progress` and `outcome.json`.
    public static func mediaDirectory(_ staging: String) -> String { staging + "/media" }
    public static func imageFile(_ staging: String) -> String { staging + "/media.webp" }
    public static func progressFile(_ staging: String) -> String { staging + "/progress" }
    public static func outcomeFile(_ staging: String) -> String { staging + "/outcome.json" }

    /// Runs the job and writes `outcome.json`; returns the exit code for the process.
    public func run(source: String, staging: String) -> Int32 {
        Self.record(process(source: source, staging: staging), staging: staging)
    }

    /// Writes `outcome` as the job's result and returns the matching exit code.
    public static func record(_ outcome: JobOutcome, staging: String) -> Int32 {
        do {
            try write(outcome, to: outcomeFile(staging))
        } catch {
            FileHandle.standardError.write(Data("cannot write the outcome: \(error)\n".utf8))
            return JobOutcome.ExitCode.retryable
        }
        switch outcome.status {
        case .published: return JobOutcome.ExitCode.published
        case .rejected: return JobOutcome.ExitCode.rejected
        case .failed: return outcome.retryable ? JobOutcome.ExitCode.retryable : JobOutcome.ExitCode.failed
        }
    }

    func process(source: String, staging: String) -> JobOutcome {
        let admitted: AdmittedUpload
        do {
            admitted = try policy.check(path: source)
        } catch {
            return JobOutcome(status: .rejected, reason: error.reason.rawValue, message: error.message)
        }
        var info = admitted.info
        info.path = ""  // the job's own path means nothing to anyone else
        switch admitted.info.kind {
        case .video:
            let progressFile = Self.progressFile(staging)
            do {
                var summary = try LadderTranscoder(policy: policy, preset: ladder)
                    .run(source: source, output: Self.mediaDirectory(staging), progress: { progress in
                        try? Data(String(format: "%.4f", progress.percent / 100).utf8).write(to: URL(fileURLWithPath: progressFile))
                    })
                try Directory.syncTree(Self.mediaDirectory(staging))
                summary.source = ""
                summary.output = ""
                return JobOutcome(status: .published, kind: .video, info: info, video: summary)
            } catch let error as TranscodeError {
                switch error.kind {
                case let .rejected(rejection):
                    return JobOutcome(status: .rejected, kind: .video, reason: rejection.reason.rawValue, message: rejection.message)
                case let .failed(_, _, retryable):
                    return JobOutcome(status: .failed, kind: .video, reason: error.code, message: error.message, retryable: retryable)
                case .cancelled:
                    return JobOutcome(status: .failed, kind: .video, reason: error.code, message: error.message, retryable: true)
                }
            } catch {
                return JobOutcome(status: .failed, kind: .video, reason: "output_failed", message: "\(error)",
                                  retryable: (error as? FileSystemError)?.isTransient ?? true)
            }
        case .image:
            do {
                var result = try ChatImageConverter(policy: policy).convert(source, to: Self.imageFile(staging), quality: imageQuality)
                try Directory.syncTree(Self.imageFile(staging))
                result.source = ""
                result.output = ""
                return JobOutcome(status: .published, kind: .image, info: info, image: result)
            } catch let rejection as Rejection {
                // Reel's side failed (the encoder, or writing): a failure, retried when it was the disk.
                if rejection.reason == .outputFailed || rejection.reason == .encodeFailed {
                    return JobOutcome(status: .failed, kind: .image, reason: rejection.reason.rawValue, message: rejection.message,
                                      retryable: rejection.reason == .outputFailed)
                }
                return JobOutcome(status: .rejected, kind: .image, reason: rejection.reason.rawValue, message: rejection.message)
            } catch {
                return JobOutcome(status: .failed, kind: .image, reason: "output_failed", message: "\(error)", retryable: true)
            }
        }
    }

    /// Written to a temporary name, fsynced and renamed: the worker reads a whole outcome or none.
    static func write(_ outcome: JobOutcome, to path: String) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let data = try encoder.encode(outcome)
        let temporary = path + ".tmp"
        try data.write(to: URL(fileURLWithPath: temporary))
        try Directory.syncTree(temporary)
        guard rename(temporary, path) == 0 else { throw CocoaError(.fileWriteUnknown) }
        try Directory.sync((path as NSString).deletingLastPathComponent)
    }
}
