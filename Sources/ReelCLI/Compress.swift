package import ArgumentParser
import Deadlines
import Foundation
import Ingest
import MediaModel
import Transcode

extension Reel {
    /// `reel compress FILE --output OUT.mp4`: the design's client-side compression to one faststart MP4.
    struct Compress: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract:
                "Compress a video to one H.264/AAC MP4 (540p 1.5 Mbps, 720p 3 Mbps or 1080p 6 Mbps, 30 fps, moov first).",
            discussion:
                "Files under 10 MB that already fit, with their audio on the loudness target (-14 LUFS), are remuxed, not re-encoded; other audio is brought to the target. Exit 0 on success, 65 when rejected (over 50 MB: too_large), 70 on failure, 130 when interrupted."
        )

        @Argument(help: "The video to compress.") var file: String
        @Option(name: .long, help: "Output MP4 (must not exist).") var output: String
        @Option(name: .long, help: "low (540p), medium (720p) or high (1080p).") var quality: CompressPreset.Quality =
            .high
        @Option(name: .long, help: "Compress presets JSON (default: Presets/compress.json when present).") var presets:
            String?
        @OptionGroup var limits: LimitsOption
        @Flag(name: .long, help: "Print JSON.") var json = false

        func run() async throws {
            let compressor = VideoCompressor(
                policy: AdmissionPolicy(limits: try limits.load()), preset: try CompressPreset.load(option: presets))
            let interrupt = Interrupt()
            let tty = isatty(2) != 0 && !json
            do {
                // On a thread of its own, as `reel transcode`: the encode waits for its parallel encoders
                // (`ParallelLoop`, a semaphore), which must never block a thread of the concurrency pool.
                let (file, output, quality) = (self.file, self.output, self.quality)
                let summary = try await onOwnThread("compress \(file)") {
                    try compressor.run(
                        source: file, output: output, quality: quality,
                        progress: { progress in
                            if tty {
                                TranscodeReporting.progressLine(progress)
                            }
                        }, isCancelled: { interrupt.isSet })
                }
                if tty { printError("") }
                if json {
                    JSONOutput.print(summary)
                } else {
                    print(
                        String(
                            format: "%@ -> %@ (%@, %dx%d, %.0f fps): %lld -> %lld bytes, %.1f%% smaller",
                            file, output, summary.mode.rawValue, summary.width, summary.height, summary.frameRate,
                            summary.sourceBytes, summary.bytes, summary.reductionPercent))
                }
            } catch let error as TranscodeError {
                if tty { printError("") }
                throw TranscodeReporting.exitCode(for: error, json: json)
            }
        }
    }
}

extension CompressPreset.Quality: ExpressibleByArgument {}
