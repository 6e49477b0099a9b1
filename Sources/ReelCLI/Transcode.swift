import ArgumentParser
import Deadlines
import Dispatch
import Foundation
import Ingest
import MediaModel
import Synchronization
import Transcode

extension Reel {
    /// `reel transcode FILE --output DIR`: the HLS ladder with posters and a storyboard, written atomically.
    struct TranscodeCommand: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "transcode",
            abstract:
                "Transcode a video to a 360p/720p/1080p H.264/AAC HLS ladder with a master playlist, posters and a storyboard.",
            discussion:
                "Exit 0 on success, 65 when the upload is rejected, 70 when transcoding fails, 130 when interrupted. DIR appears only when complete."
        )

        @Argument(help: "The uploaded video.") var file: String
        @Option(name: .long, help: "Output directory (must not exist, or be empty).") var output: String
        @Option(name: .long, help: "Ladder preset JSON (default: Presets/ladder.json when present).") var ladder:
            String?
        @OptionGroup var limits: LimitsOption
        @Flag(name: .long, help: "Print JSON progress events and a JSON summary.") var json = false
        @Flag(
            name: .long,
            help: "Read every rendition back as it is encoded and report its SSIM-Y against the source at its size.")
        var ssim = false

        struct Event: Encodable {
            let event: String
            let percent: Double
            let seconds: Double
            let speed: Double
        }

        struct Failure: Encodable {
            let accepted: Bool
            let reason: String
            let message: String
            let path: String
        }

        func run() async throws {
            let transcoder = LadderTranscoder(
                policy: AdmissionPolicy(limits: try limits.load()), preset: try LadderPreset.load(option: ladder),
                measuresQuality: ssim)
            let interrupt = Interrupt()
            let json = self.json
            let tty = isatty(2) != 0
            do {
                // On a thread of its own: the ladder waits for its parallel encoders (`ParallelLoop`), which must
                // never block a thread of the concurrency pool, where the interrupt is watched.
                let (file, output) = (self.file, self.output)
                let summary = try await onOwnThread("transcode \(file)") {
                    try transcoder.run(
                        source: file, output: output,
                        progress: { progress in
                            if json {
                                JSONOutput.print(
                                    Event(
                                        event: "progress", percent: (progress.percent * 10).rounded() / 10,
                                        seconds: progress.seconds, speed: (progress.speed * 100).rounded() / 100))
                            } else if tty {
                                TranscodeReporting.progressLine(progress)
                            }
                        }, isCancelled: { interrupt.isSet })
                }
                if tty && !json { printError("") }
                if json {
                    JSONOutput.print(summary)
                } else {
                    print("\(file) -> \(output)/master.m3u8 in \(String(format: "%.1f", summary.elapsedSeconds)) s")
                    for r in summary.renditions {
                        print(
                            String(
                                format: "  %-10@ %5dx%-5d %4d kb/s avg, %4d kb/s peak, %2d segments, %@",
                                r.id, r.width, r.height, r.averageBandwidth / 1000, r.bandwidth / 1000, r.segments,
                                r.codecs)
                                + (r.crf.map { String(format: ", CRF %g", $0) } ?? "")
                                + (r.targetSSIMY.map { String(format: " for SSIM-Y %.4f", $0) } ?? "")
                                + (r.ssimY.map { String(format: ", SSIM-Y %.5f", $0) } ?? "")
                                + (r.encodeCPUSeconds.map { String(format: ", encoder %.1f CPU s", $0) } ?? ""))
                    }
                    if let analysis = summary.rateAnalysis {
                        if let first = analysis.firstProbes, let stopped = first.stopped {
                            print("  " + TranscodeReporting.describe(stopped, first, analysis))
                        } else {
                            print(
                                String(
                                    format: "  content-aware rates: %d windows of %.1f s probed in %.1f s (%.1f CPU s)",
                                    analysis.windowStarts.count, analysis.windowSeconds, analysis.elapsedSeconds,
                                    analysis.cpuSeconds)
                                    + (analysis.firstProbes?.discardedSeconds.map {
                                        String(
                                            format: ", after the first probes found headroom (%.1f s of the ladder "
                                                + "encoded again)", $0)
                                    } ?? ""))
                        }
                    }
                    if let check = summary.rateCheck { print("  " + TranscodeReporting.describe(check)) }
                    print("  poster at \(String(format: "%.2f", summary.posterTimeSeconds)) s: poster.jpg, poster.webp")
                    if let board = summary.storyboard {
                        print(
                            "  storyboard: \(board.count) thumbnails every \(board.intervalSeconds) s, \(board.tileWidth)x\(board.tileHeight) "
                                + "in \(board.columns) columns: \(board.imagePath), \(board.vttPath)")
                    }
                    if let loudness = summary.loudness { print("  " + TranscodeReporting.describe(loudness)) }
                }
            } catch let error as TranscodeError {
                if tty && !json { printError("") }
                throw TranscodeReporting.exitCode(for: error, json: json)
            }
        }
    }
}

/// SIGINT/SIGTERM set a flag the pipeline polls, so it can stop and remove its staging directory.
/// `@unchecked Sendable`: `flag` is behind a `Mutex`; `sources` is written only in init and kept only to stay alive.
final class Interrupt: @unchecked Sendable {
    private let flag = Mutex(false)
    private var sources: [any DispatchSourceSignal] = []

    init() {
        for number in [SIGINT, SIGTERM] {
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { [weak self] in self?.set() }
            source.resume()
            sources.append(source)
        }
    }

    private func set() { flag.withLock { $0 = true } }
    var isSet: Bool { flag.withLock { $0 } }
}
