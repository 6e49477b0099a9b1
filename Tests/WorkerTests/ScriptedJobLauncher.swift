import FileSystem
import Foundation
import MediaModel
import Synchronization
import Worker

/// A job launcher for in-process tests: each launch acts out a scripted job, writing what a real job process
/// writes into its staging directory (outputs and `outcome.json`, through the real `JobRunner.record`), and
/// returns a process that has already ended (or hangs until killed).
final class ScriptedJobLauncher: JobLauncher {
    enum Script: Sendable {
        case publishImage
        case publishVideo
        case reject(RejectionReason)
        case fail(FailureReason, retryable: Bool)
        case crash
        case hang
        case refuseToStart
    }

    struct Launch: Sendable {
        let jobID: String
        let at: Double
    }

    private let script: @Sendable (_ invocation: JobInvocation, _ attempt: Int) -> Script
    private let state = Mutex<[Launch]>([])

    init(_ script: @escaping @Sendable (_ invocation: JobInvocation, _ attempt: Int) -> Script) {
        self.script = script
    }

    var launches: [Launch] { state.withLock { $0 } }

    func launch(_ invocation: JobInvocation) throws(FileSystemError) -> any JobProcess {
        let attempt = state.withLock { launches in
            launches.append(Launch(jobID: invocation.jobID, at: ProcessInfo.processInfo.systemUptime))
            return launches.filter { $0.jobID == invocation.jobID }.count
        }
        switch script(invocation, attempt) {
        case .refuseToStart:
            throw FileSystemError("posix_spawn", "reel", code: EAGAIN)
        case .crash:
            return FinishedJob(termination: .signalled(SIGSEGV))
        case .hang:
            return HangingJob()
        case let .reject(reason):
            let rejection = Rejection(reason, "scripted rejection", path: invocation.source)
            return FinishedJob(termination: .exited(JobRunner.record(JobOutcome(kind: .image, error: .rejected(rejection)), for: invocation)))
        case let .fail(reason, retryable):
            let failure = ProcessingFailure(reason, "scripted failure", path: invocation.source, retryable: retryable)
            return FinishedJob(termination: .exited(JobRunner.record(JobOutcome(error: .failed(failure)), for: invocation)))
        case .publishImage:
            do {
                try AtomicFile.write(Array("RIFF....WEBPVP8 scripted".utf8), to: invocation.imageFile)
            } catch {
                return FinishedJob(termination: .exited(JobRunner.record(JobOutcome(error: .failed(
                    ProcessingFailure(error.isDiskFull ? .diskFull : .outputFailed, "\(error)", path: invocation.source))), for: invocation)))
            }
            return FinishedJob(termination: .exited(JobRunner.record(Self.outcome(Self.imageJSON), for: invocation)))
        case .publishVideo:
            do {
                try Directory.create(invocation.mediaDirectory + "/360p")
                try AtomicFile.write(Array("#EXTM3U\n".utf8), to: invocation.mediaDirectory + "/master.m3u8")
                try AtomicFile.write(Array("#EXTM3U\n".utf8), to: invocation.mediaDirectory + "/360p/index.m3u8")
                try AtomicFile.write([UInt8](repeating: 7, count: 4096), to: invocation.mediaDirectory + "/360p/segment0.m4s")
                try AtomicFile.write(Array("RIFF....WEBPVP8 scripted".utf8), to: invocation.mediaDirectory + "/storyboard.webp")
                try AtomicFile.write(Array("WEBVTT\n\n00:00:00.000 --> 00:00:02.000\nstoryboard.webp#xywh=0,0,160,284\n".utf8),
                                     to: invocation.mediaDirectory + "/storyboard.vtt")
            } catch {
                return FinishedJob(termination: .exited(JobRunner.record(JobOutcome(error: .failed(
                    ProcessingFailure(error.isDiskFull ? .diskFull : .outputFailed, "\(error)", path: invocation.source))), for: invocation)))
            }
            return FinishedJob(termination: .exited(JobRunner.record(Self.outcome(Self.videoJSON), for: invocation)))
        }
    }

    static func outcome(_ json: String) -> JobOutcome {
        // The summaries have no public memberwise initialisers: they are made from the JSON a job writes.
        try! JSONDecoder().decode(JobOutcome.self, from: Data(json.utf8))
    }

    static let imageJSON = """
        {"kind": "image", "image": {"source": "", "output": "", "source_format": "png", "source_width": 90, "source_height": 60,
         "orientation": 1, "width": 90, "height": 60, "has_alpha": false, "bytes": 24, "quality": "high"}}
        """

    static let videoJSON = """
        {"kind": "video", "video": {"source": "", "output": "", "duration_seconds": 2, "frame_rate": 30, "poster_jpeg": "poster.jpg",
         "poster_webp": "poster.webp", "poster_time_seconds": 0.5, "elapsed_seconds": 1,
         "storyboard": {"vtt": "storyboard.vtt", "image": "storyboard.webp", "interval_seconds": 1, "tile_width": 160,
                        "tile_height": 284, "columns": 2, "count": 2},
         "renditions": [{"id": "360p", "width": 360, "height": 640, "playlist": "360p/index.m3u8", "bytes": 4096,
                         "bandwidth": 600000, "average_bandwidth": 500000, "codecs": "avc1.64001e,mp4a.40.2", "segments": 1,
                         "frames": 60}]}}
        """
}

/// A job process that has already ended.
struct FinishedJob: JobProcess {
    let termination: Subprocess.Termination
    var pid: Int32 { 0 }
    func poll() -> Subprocess.Termination? { termination }
    func kill() -> Subprocess.Termination { termination }
}

/// A job process that never ends by itself, as a hung decoder.
final class HangingJob: JobProcess {
    private let killed = Mutex(false)
    var pid: Int32 { 0 }
    func poll() -> Subprocess.Termination? { killed.withLock { $0 } ? .signalled(SIGKILL) : nil }
    func kill() -> Subprocess.Termination {
        killed.withLock { $0 = true }
        return .signalled(SIGKILL)
    }
}
