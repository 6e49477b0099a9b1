package import ArgumentParser
import ChatImages
import FileSystem
import Foundation
import Ingest
import MediaModel

extension Reel {
    /// `reel webp INPUT --output OUT`: chat images to WebP, one file or a whole directory in parallel.
    struct Webp: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Convert a chat image (or a directory of them) to WebP: upright, resized, metadata stripped.",
            discussion:
                "Exit 0 when every file converted, 65 when a file was rejected or failed (the summary lists each)."
        )

        @Argument(help: "An image file, or a directory of images.") var input: String
        @Option(name: .long, help: "Output .webp file, or a directory when INPUT is a directory.") var output: String
        @Option(name: .long, help: "low (1024 px, q30), medium (1024 px, q60) or high (2048 px, q80).") var quality:
            ImageQuality = .high
        @Option(name: .long, help: "Image presets JSON (default: Presets/images.json when present).") var presets:
            String?
        @Option(name: .long, help: "Files converted at once in a directory batch (default: one per core).") var jobs:
            Int?
        @OptionGroup var limits: LimitsOption
        @Flag(name: .long, help: "Print JSON.") var json = false

        struct Summary: Encodable {
            let converted: [ChatImageResult]
            let failed: [ProcessingError]
        }

        func validate() throws {
            if let jobs, jobs < 1 { throw ValidationError("--jobs must be at least 1, got \(jobs)") }
        }

        func run() async throws {
            let converter = ChatImageConverter(
                policy: AdmissionPolicy(limits: try limits.load()), presets: try ImagePresets.load(option: presets))
            guard Directory.isDirectory(input) else {
                try convertOne(converter)
                return
            }
            try Directory.create(output)
            let plan = try BatchConversion.plan(directory: input, output: output)
            let showsProgress = !json && isatty(2) != 0
            let started = Date()
            let outcome = BatchConversion(
                converter: converter, quality: quality, workers: jobs ?? ProcessInfo.processInfo.activeProcessorCount
            ).run(plan) { done, total in
                guard showsProgress else { return }
                let rate = Double(done) / max(Date().timeIntervalSince(started), 0.001)
                StandardError.write(String(format: "\r%d/%d images, %.1f/s ", done, total, rate))
            }
            if showsProgress { printError("") }
            if json {
                JSONOutput.print(Summary(converted: outcome.converted, failed: outcome.failed))
            } else {
                let bytes = outcome.converted.reduce(0) { $0 + $1.bytes }
                print("converted \(outcome.converted.count) of \(plan.count) images to \(output) (\(bytes) bytes)")
                for failure in outcome.failed {
                    printError("failed: \(failure.path): \(failure.code): \(failure.message)")
                }
            }
            if !outcome.failed.isEmpty { throw ExitCode(65) }
        }

        private func convertOne(_ converter: ChatImageConverter) throws {
            do {
                let result = try converter.convert(input, to: output, quality: quality)
                if json {
                    JSONOutput.print(result)
                } else {
                    print(
                        "\(input) (\(result.sourceFormat) \(result.sourceWidth)x\(result.sourceHeight)) -> \(output) (\(result.width)x\(result.height), \(result.bytes) bytes)"
                    )
                }
            } catch {
                let isRejection = if case .rejected = error { true } else { false }
                if json {
                    JSONOutput.print(Check.Refused(reason: error.code, message: error.message, path: error.path))
                } else {
                    printError("\(isRejection ? "rejected" : "failed"): \(error.path): \(error.code): \(error.message)")
                }
                // 65 (EX_DATAERR): the image is bad; 70 (EX_SOFTWARE): Reel failed.
                throw ExitCode(isRejection ? 65 : 70)
            }
        }
    }
}

extension ImageQuality: ExpressibleByArgument {}
