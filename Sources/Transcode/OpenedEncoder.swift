internal import FileSystem
internal import LibAV

/// An encoder with the threads it started while it opened, from which its CPU is counted (`ThreadGroupCPU`; encoders
/// open one after another, so the new threads are its own). It is opened by a thread that cannot raise any thread to
/// real-time scheduling, which SVT-AV1 run as root does to every thread it starts (`ThreadScheduling`).
struct OpenedEncoder {
    let encoder: Encoder
    let threads: ThreadGroupCPU

    init(_ settings: EncoderSettings) throws(AVError) {
        let before = ThreadCPU.threadIDs()
        let couldRaise = try Self.scheduling(settings) { () throws(FileSystemError) in try ThreadScheduling.forbidRealTime() }
        let opened: Result<Encoder, AVError>
        do { opened = .success(try Encoder(settings)) } catch { opened = .failure(error) }
        if couldRaise { try Self.scheduling(settings) { () throws(FileSystemError) in try ThreadScheduling.allowRealTime() } }
        encoder = try opened.get()
        threads = ThreadGroupCPU(threads: ThreadCPU.threadIDs().subtracting(before))
        // Any thread made real time some other way (a library that sets its class from one of its own threads).
        try Self.scheduling(settings) { () throws(FileSystemError) in try ThreadScheduling.keepOrdinary() }
    }

    private static func scheduling<T>(_ settings: EncoderSettings, _ call: () throws(FileSystemError) -> T) throws(AVError) -> T {
        do {
            return try call()
        } catch {
            throw AVError(function: error.call, message: "opening \(settings.codec): \(error.description)")
        }
    }
}
