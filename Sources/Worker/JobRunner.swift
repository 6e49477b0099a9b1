package import ChatImages
internal import FileSystem
internal import Foundation
package import Ingest
internal import MediaModel
internal import Sandbox
package import Transcode

/// The job process (`reel worker-job`): admits one upload and transcodes or converts it into its staging directory,
/// under resource limits it sets on itself first. It never touches the catalog; the worker publishes.
package struct JobRunner: Sendable {
    package var policy: AdmissionPolicy
    package var ladder: LadderPreset
    package var imageQuality: ImageQuality

    package init(policy: AdmissionPolicy, ladder: LadderPreset, imageQuality: ImageQuality = .high) {
        self.policy = policy
        self.ladder = ladder
        self.imageQuality = imageQuality
    }

    /// Everything the job process does, from limits to outcome; returns its exit code.
    package static func main(_ invocation: JobInvocation) -> Int32 {
        // Limits before the upload is opened: nothing the file makes libav do can exceed them.
        ResourceLimits.dieWithParent()
        do {
            try ResourceLimits.apply(addressSpace: invocation.memoryMegabytes << 20, cpuSeconds: invocation.cpuSeconds)
        } catch {
            StandardError.write("worker-job: \(error)\n")
            return JobInvocation.ExitCode.retryable
        }
        let runner: JobRunner
        do {
            let limits = try invocation.limitsPath.map { try AdmissionLimits.load(from: $0) } ?? .default
            let ladder = try invocation.ladderPath.map { try LadderPreset.load(from: $0) } ?? .default
            runner = JobRunner(policy: AdmissionPolicy(limits: limits), ladder: ladder)
        } catch {
            let failure = ProcessingFailure(
                .crashed, "the job could not load its presets: \(error)", path: invocation.source, retryable: false)
            return record(JobOutcome(error: .failed(failure)), for: invocation)
        }
        // Confined before the upload is opened: whatever the file makes libav do, it reads only the upload and the
        // libraries, writes only the staging directory, opens no socket and gains no privilege.
        let sandbox: SandboxReport
        do {
            let policy = try SandboxPolicy.forJob(input: invocation.source, scratch: invocation.staging)
            sandbox = try Sandbox.confine(policy, mode: invocation.sandbox ?? .auto)
        } catch {
            let failure = ProcessingFailure(
                .spawnFailed, "the job's sandbox could not be set up: \(error)", path: invocation.source)
            StandardError.write("worker-job: \(failure.message)\n")
            // A jail that failed half-way may hide the staging directory: that is no full disk.
            let code = record(JobOutcome(error: .failed(failure)), for: invocation)
            return code == JobInvocation.ExitCode.outcomeUnwritable ? JobInvocation.ExitCode.failed : code
        }
        #if REEL_TEST_HOOKS
        if let code = actOut(invocation) { return code }
        #endif
        var outcome = runner.process(invocation)
        outcome.sandbox = sandbox
        outcome.cpuSeconds = ThreadCPU.processSeconds()
        return record(outcome, for: invocation)
    }

    #if REEL_TEST_HOOKS
    /// Test hook: acts out the faults a libav bug or a full disk would cause. nil when there is none to act out.
    static func actOut(_ invocation: JobInvocation) -> Int32? {
        switch invocation.fault {
        case "job-crash":
            // A real fault, as a decoder bug makes.
            UnsafeMutablePointer<UInt8>(bitPattern: 8)!.pointee = 1
            return nil
        case "job-hang":
            while true { pause() }
        case "job-transient":
            let failure = ProcessingFailure(
                .outputFailed, "injected: Input/output error", path: invocation.source, retryable: true)
            return record(JobOutcome(error: .failed(failure)), for: invocation)
        case "job-disk-full":
            let failure = ProcessingFailure(.diskFull, "injected: No space left on device", path: invocation.source)
            return record(JobOutcome(error: .failed(failure)), for: invocation)
        case "job-sandbox-probe":
            // What the confined job can still reach, tried from inside it (Tests/CLITests/SandboxedJobTests).
            let outside = (invocation.staging as NSString).deletingLastPathComponent + "/outside"
            let results = SandboxProbe.run(input: invocation.source, scratch: invocation.staging, outside: outside)
            do {
                let encoder = JSONEncoder()
                encoder.outputFormatting = [.sortedKeys]
                try AtomicFile.write(Array(try encoder.encode(results)), to: invocation.staging + "/probe.json")
            } catch {
                StandardError.write("worker-job: cannot write the probe's results: \(error)\n")
                return JobInvocation.ExitCode.outcomeUnwritable
            }
            return JobInvocation.ExitCode.published
        default:
            return nil
        }
    }
    #endif

    /// Writes `outcome` atomically (the worker reads a whole outcome or none) and returns the matching exit code.
    /// `outcomeUnwritable` says the disk is full; any other reason (the staging directory removed under a job whose
    /// lease was taken over) is a plain failure, so the worker does not stop claiming for a disk that has room.
    package static func record(_ outcome: JobOutcome, for invocation: JobInvocation) -> Int32 {
        do {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys]
            try AtomicFile.write(Array(try encoder.encode(outcome)), to: invocation.outcomeFile)
        } catch {
            StandardError.write("worker-job: cannot write the outcome: \(error)\n")
            let diskFull = (error as? FileSystemError)?.isDiskFull == true
            return diskFull ? JobInvocation.ExitCode.outcomeUnwritable : JobInvocation.ExitCode.failed
        }
        return outcome.exitCode
    }

    /// Opens and sniffs the upload once; an image goes to the converter, a video through one admission (one libav
    /// open) to the transcoder, which decodes the very file admission checked.
    func process(_ invocation: JobInvocation) -> JobOutcome {
        let source = invocation.source
        let upload: SniffedUpload
        do { upload = try policy.open(path: source) } catch { return JobOutcome(error: .rejected(error)) }
        // An image goes straight to the converter, whose admission applies every limit and whose full decode
        // replaces the trial decode: decoding it twice cost a libav decode per photo, and loading libav itself.
        if upload.format.isImage { return convertImage(upload, invocation) }
        let admitted: AdmittedVideo
        do { admitted = try policy.admitVideo(upload) } catch { return JobOutcome(error: .rejected(error)) }
        var info = admitted.info
        info.path = ""  // the job's own path means nothing to anyone else
        // Playable in about a second (issue 64): a provisional rendition first, then the ladder as before.
        makePlayable(admitted, info: info, invocation)
        let progressFile = invocation.progressFile
        do {
            var summary = try LadderTranscoder(policy: policy, preset: ladder)
                .run(
                    admitted, output: invocation.mediaDirectory,
                    progress: { progress in
                        try? AtomicFile.write(
                            Array(String(format: "%.4f", progress.percent / 100).utf8), to: progressFile, durable: false
                        )
                    })
            summary.source = ""
            summary.output = ""
            return JobOutcome(kind: .video, info: info, video: summary)
        } catch {
            return JobOutcome(kind: .video, error: error.processingError)
        }
    }

    /// An image job: admitted, decoded, resized and encoded by `ChatImageConverter`. Its facts are in `image`.
    func convertImage(_ upload: SniffedUpload, _ invocation: JobInvocation) -> JobOutcome {
        do {
            var result = try ChatImageConverter(policy: policy, encoderThreads: invocation.encoderThreads ?? false)
                .convert(upload, to: invocation.imageFile, quality: imageQuality)
            result.source = ""
            result.output = ""
            return JobOutcome(kind: .image, image: result)
        } catch {
            return JobOutcome(kind: .image, error: error)
        }
    }
}
