import FileSystem
import Foundation
import MediaModel
import Synchronization
import Testing
import Transcode
import Worker

/// A job launcher for in-process tests: each launch acts out a scripted job, writing what a real job process
/// writes into its staging directory (outputs and `outcome.json`, through the real `JobRunner.record`), and
/// returns a process that has already ended (or hangs until killed).
final class ScriptedJobLauncher: JobLauncher {
    enum Script: Sendable {
        case publishImage
        case publishVideo
        /// A video whose ladder has H.264, HEVC and AV1 renditions of one rung, each with its codec and CRF.
        case publishMultiCodecVideo
        case reject(RejectionReason)
        case fail(FailureReason, retryable: Bool)
        case crash
        case hang
        case refuseToStart
        /// Hands over a provisional rendition (issue 64) at once: an `EVENT` playlist with two segments, `complete`
        /// false. Runs until `gate` opens, then adds a third segment, ends the playlist, and ends as `then`.
        indirect case playable(then: Script, gate: JobGate)
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
        return try act(script(invocation, attempt), invocation)
    }

    func act(_ scripted: Script, _ invocation: JobInvocation) throws(FileSystemError) -> any JobProcess {
        switch scripted {
        case let .playable(then, gate):
            Self.writePlayable(invocation, segments: 2, ended: false)
            return GatedJob(gate: gate) {
                Self.writePlayable(invocation, segments: 3, ended: true)
                guard let process = try? self.act(then, invocation) else { return .signalled(SIGKILL) }
                return process.poll() ?? process.kill()
            }
        case .refuseToStart:
            throw FileSystemError("posix_spawn", "reel", code: EAGAIN)
        case .crash:
            return FinishedJob(termination: .signalled(SIGSEGV))
        case .hang:
            return HangingJob()
        case let .reject(reason):
            let rejection = Rejection(reason, "scripted rejection", path: invocation.source)
            return FinishedJob(
                termination: .exited(
                    JobRunner.record(JobOutcome(kind: .image, error: .rejected(rejection)), for: invocation)))
        case let .fail(reason, retryable):
            let failure = ProcessingFailure(reason, "scripted failure", path: invocation.source, retryable: retryable)
            return FinishedJob(
                termination: .exited(JobRunner.record(JobOutcome(error: .failed(failure)), for: invocation)))
        case .publishImage:
            do {
                try AtomicFile.write(Array("RIFF....WEBPVP8 scripted".utf8), to: invocation.imageFile)
            } catch {
                return FinishedJob(
                    termination: .exited(
                        JobRunner.record(
                            JobOutcome(
                                error: .failed(
                                    ProcessingFailure(
                                        error.isDiskFull ? .diskFull : .outputFailed, "\(error)",
                                        path: invocation.source))), for: invocation)))
            }
            return FinishedJob(termination: .exited(JobRunner.record(Self.outcome(Self.imageJSON), for: invocation)))
        case .publishVideo, .publishMultiCodecVideo:
            do {
                try Directory.create(invocation.mediaDirectory + "/360p")
                try AtomicFile.write(Array("#EXTM3U\n".utf8), to: invocation.mediaDirectory + "/master.m3u8")
                try AtomicFile.write(Array("#EXTM3U\n".utf8), to: invocation.mediaDirectory + "/360p/index.m3u8")
                try AtomicFile.write(
                    [UInt8](repeating: 7, count: 4096), to: invocation.mediaDirectory + "/360p/segment0.m4s")
                try AtomicFile.write(
                    Array("RIFF....WEBPVP8 scripted".utf8), to: invocation.mediaDirectory + "/storyboard.webp")
                try AtomicFile.write(
                    Array("WEBVTT\n\n00:00:00.000 --> 00:00:02.000\nstoryboard.webp#xywh=0,0,160,284\n".utf8),
                    to: invocation.mediaDirectory + "/storyboard.vtt")
            } catch {
                return FinishedJob(
                    termination: .exited(
                        JobRunner.record(
                            JobOutcome(
                                error: .failed(
                                    ProcessingFailure(
                                        error.isDiskFull ? .diskFull : .outputFailed, "\(error)",
                                        path: invocation.source))), for: invocation)))
            }
            var json = Self.videoJSON
            if case .publishMultiCodecVideo = scripted { json = Self.multiCodecVideoJSON }
            return FinishedJob(termination: .exited(JobRunner.record(Self.outcome(json), for: invocation)))
        }
    }

    /// `playable/` as a first-rung job leaves it: a master, a 360p rendition whose playlist lists `segments` 2 s
    /// segments (growing, or ended), posters, and `playable.json` last.
    static func writePlayable(_ invocation: JobInvocation, segments: Int, ended: Bool) {
        let directory = invocation.playableDirectory
        var playlist = "#EXTM3U\n#EXT-X-VERSION:7\n#EXT-X-TARGETDURATION:2\n#EXT-X-PLAYLIST-TYPE:EVENT\n"
        playlist += "#EXT-X-MAP:URI=\"init.mp4\"\n"
        for n in 0..<segments { playlist += "#EXTINF:2.000000,\nseg_00\(n).m4s\n" }
        if ended { playlist += "#EXT-X-ENDLIST\n" }
        let outcome = PlayableOutcome(
            mode: .firstRung, durationSeconds: 6, renditions: [outcome(videoJSON).video!.renditions[0]],
            complete: ended)
        do {
            try Directory.create(directory + "/360p")
            try AtomicFile.write(Array("init".utf8), to: directory + "/360p/init.mp4")
            for n in 0..<segments {
                try AtomicFile.write([UInt8](repeating: UInt8(n), count: 1000), to: directory + "/360p/seg_00\(n).m4s")
            }
            try AtomicFile.write(Array(playlist.utf8), to: directory + "/360p/index.m3u8")
            try AtomicFile.write(Array("#EXTM3U\n360p/index.m3u8\n".utf8), to: directory + "/master.m3u8")
            try AtomicFile.write(Array("jpeg".utf8), to: directory + "/poster.jpg")
            try AtomicFile.write(Array("webp".utf8), to: directory + "/poster.webp")
            try AtomicFile.write(Array(try JSONEncoder().encode(outcome)), to: invocation.playableFile)
        } catch {
            Issue.record("cannot write a scripted provisional rendition: \(error)")
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
         "loudness": {"source_lufs": -31.25, "source_true_peak_dbtp": -18.5, "gain_db": 17.25, "target_lufs": -14,
                      "true_peak_ceiling_dbtp": -1, "limited": false, "capped": false, "silent": false},
         "renditions": [{"id": "360p", "width": 360, "height": 640, "playlist": "360p/index.m3u8", "bytes": 4096,
                         "bandwidth": 600000, "average_bandwidth": 500000, "codecs": "avc1.64001e,mp4a.40.2", "segments": 1,
                         "frames": 60}]}}
        """

    static let multiCodecVideoJSON = """
        {"kind": "video", "video": {"source": "", "output": "", "duration_seconds": 2, "frame_rate": 30, "poster_jpeg": "poster.jpg",
         "poster_webp": "poster.webp", "poster_time_seconds": 0.5, "elapsed_seconds": 1,
         "renditions": [
          {"id": "360p", "width": 360, "height": 640, "playlist": "360p/index.m3u8", "bytes": 4096, "bandwidth": 600000,
           "average_bandwidth": 500000, "codecs": "avc1.64001e,mp4a.40.2", "segments": 1, "frames": 60, "rung": "360p",
           "video_codec": "h264", "crf": 24, "target_ssim_y": 0.9625, "ssim_y": 0.9631, "encode_cpu_seconds": 0.4},
          {"id": "360p-hevc", "width": 360, "height": 640, "playlist": "360p-hevc/index.m3u8", "bytes": 3000, "bandwidth": 420000,
           "average_bandwidth": 350000, "codecs": "hvc1.1.6.L63.90,mp4a.40.2", "segments": 1, "frames": 60, "rung": "360p",
           "video_codec": "hevc", "crf": 28, "target_ssim_y": 0.9625},
          {"id": "360p-av1", "width": 360, "height": 640, "playlist": "360p-av1/index.m3u8", "bytes": 2500, "bandwidth": 380000,
           "average_bandwidth": 300000, "codecs": "av01.0.01M.08,mp4a.40.2", "segments": 1, "frames": 60, "rung": "360p",
           "video_codec": "av1", "crf": 38}]}}
        """
}

/// Lets a scripted job end when the test says so.
final class JobGate: Sendable {
    private let open = Mutex(false)
    func release() { open.withLock { $0 = true } }
    var isOpen: Bool { open.withLock { $0 } }
}

/// A job process that runs until its gate opens, then acts out the rest of its script once.
final class GatedJob: JobProcess {
    private let gate: JobGate
    private let state: Mutex<Subprocess.Termination?> = Mutex(nil)
    private let finish: @Sendable () -> Subprocess.Termination
    var pid: Int32 { 0 }

    init(gate: JobGate, finish: @escaping @Sendable () -> Subprocess.Termination) {
        self.gate = gate
        self.finish = finish
    }

    func poll() -> Subprocess.Termination? {
        guard gate.isOpen else { return state.withLock { $0 } }
        return state.withLock { ended in
            if ended == nil { ended = finish() }
            return ended
        }
    }

    func kill() -> Subprocess.Termination {
        state.withLock { ended in
            if ended == nil { ended = .signalled(SIGKILL) }
            return ended!
        }
    }
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
