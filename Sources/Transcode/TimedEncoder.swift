internal import FileSystem
internal import LibAV

/// An encoder whose CPU is counted: the threads it started while it opened (x264's frame and lookahead threads,
/// x265's pool, SVT-AV1's pipeline), read at every key frame and before the flush (x264's lookahead thread ends with
/// the flush), plus the calling thread's time inside its calls. Encoders open one after another, so the new threads
/// are its own when nothing else in the process starts threads meanwhile: true of a job process and of
/// `reel transcode`, not of the test process. It is opened by a thread that cannot raise any thread to real-time
/// scheduling, which SVT-AV1 run as root does to every thread it starts (`ThreadScheduling`). Only one thread uses it
/// at a time.
/// `@unchecked Sendable`: one thread at a time sends to and receives from it; its CPU tallies change only then.
final class TimedEncoder: @unchecked Sendable {
    let encoder: Encoder
    private var threads: ThreadGroupCPU
    private var callSeconds = 0.0

    init(_ settings: EncoderSettings) throws(AVError) {
        let before = ThreadCPU.threadIDs()
        let couldRaise = try Self.scheduling(settings) { () throws(FileSystemError) in
            try ThreadScheduling.forbidRealTime()
        }
        let opened: Result<Encoder, AVError>
        do { opened = .success(try Encoder(settings)) } catch { opened = .failure(error) }
        if couldRaise {
            try Self.scheduling(settings) { () throws(FileSystemError) in try ThreadScheduling.allowRealTime() }
        }
        encoder = try opened.get()
        threads = ThreadGroupCPU(threads: ThreadCPU.threadIDs().subtracting(before))
        // Any thread made real time some other way (a library that sets its class from one of its own threads).
        _ = try Self.scheduling(settings) { () throws(FileSystemError) in try ThreadScheduling.keepOrdinary() }
    }

    /// Sends a picture of its own (a reference), an IDR when `keyframe`.
    func send(_ frame: Frame, keyframe: Bool) throws(AVError) {
        frame.forceKeyframe(keyframe)
        if keyframe { threads.sample() }
        try timed { () throws(AVError) in _ = try encoder.send(frame) }
    }

    /// Starts the flush; `receive` then gives the encoder's last packets.
    func flush() throws(AVError) {
        threads.sample()
        try timed { () throws(AVError) in _ = try encoder.send(nil) }
    }

    /// The next packet, if there is one now.
    func receive(into packet: Packet) throws(AVError) -> Bool {
        try timed { () throws(AVError) in try encoder.receive(into: packet) } == .output
    }

    /// CPU seconds the encoder has used so far.
    func cpuSeconds() -> Double {
        threads.sample()
        return callSeconds + threads.seconds
    }

    private func timed<T>(_ call: () throws(AVError) -> T) throws(AVError) -> T {
        let started = ThreadCPU.currentThreadSeconds()
        defer { callSeconds += ThreadCPU.currentThreadSeconds() - started }
        return try call()
    }

    private static func scheduling<T>(
        _ settings: EncoderSettings, _ call: () throws(FileSystemError) -> T
    ) throws(AVError) -> T {
        do {
            return try call()
        } catch {
            throw AVError(function: error.call, message: "opening \(settings.codec): \(error.description)")
        }
    }
}
