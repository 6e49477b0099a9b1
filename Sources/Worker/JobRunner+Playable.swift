internal import FileSystem
internal import Foundation
internal import Ingest
internal import MediaModel
internal import Transcode

extension JobRunner {
    /// The provisional rendition (issue 64): `playable/` and `playable.json` in the staging directory, which the
    /// worker publishes while the ladder is made. Never fails the job: on any failure both are removed, one line
    /// says why on stderr, and the ladder goes on as without it.
    func makePlayable(_ admitted: AdmittedVideo, info: MediaInfo, _ invocation: JobInvocation) {
        let directory = invocation.playableDirectory
        let file = invocation.playableFile
        do {
            _ = try PlayableTranscoder(preset: ladder).run(admitted, into: directory) { report in
                try Self.writePlayable(report, info: info, to: file)
            }
        } catch {
            try? Directory.removeFile(file)
            Directory.remove(directory)
            StandardError.write("worker-job: no provisional rendition, the ladder goes on: \(error)\n")
        }
    }

    /// Writes `playable.json` whole (the worker reads all of it or none), keys sorted.
    static func writePlayable(_ report: PlayableTranscoder.Report, info: MediaInfo, to file: String) throws {
        let outcome = PlayableOutcome(
            mode: report.mode == .remux ? .remux : .firstRung, durationSeconds: report.durationSeconds,
            renditions: report.renditions, posterJPEG: report.posterJPEG, posterWebP: report.posterWebP,
            complete: report.complete, info: info)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        try AtomicFile.write(Array(try encoder.encode(outcome)), to: file)
    }
}
