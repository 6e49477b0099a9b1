import ArgumentParser
import Catalog
import FileSystem
import Foundation
import Ingest
import MediaModel
import Synchronization
import Transcode
import UploadClient

extension Reel {
    /// `reel upload FILE --server URL --token T`: the product's client flow (compress, upload over tus, poll the job).
    struct Upload: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract:
                "Upload a video or image to a Reel server over tus, compressing videos first when needed, then follow its job.",
            discussion: """
                Videos under 10 MB that already fit the tier and images (up to 20 MB) are sent as they are; other videos \
                up to 50 MB are compressed first. An interrupted upload resumes when the same command runs again \
                (state in $XDG_CACHE_HOME/reel/uploads or ~/.cache/reel/uploads). Exit 0 published (or uploaded with \
                --no-wait), 65 rejected, 69 server unavailable, 70 failed, 77 token refused, 130 interrupted.
                """
        )

        @Argument(help: "The video or image to upload.") var file: String
        @Option(name: .long, help: "The server's base URL, e.g. https://reel.example.com.") var server: String
        @Option(
            name: .long,
            help:
                "Upload token; visible to other users in /proc while reel runs, so prefer --token-file or $REEL_TOKEN.")
        var token: String?
        @Option(name: .long, help: ArgumentHelp("A file whose first line is the upload token.", valueName: "path"))
        var tokenFile: String?
        @Option(
            name: .long, help: "Compression tier when a video is compressed: low (540p), medium (720p) or high (1080p)."
        )
        var quality: CompressPreset.Quality = .high
        @Flag(name: .long, help: "Stop once the upload is complete; do not follow the job.") var noWait = false
        @Flag(name: .long, help: "Print one JSON event per line on stdout.") var json = false
        @Option(
            name: .long,
            help:
                "PATCH chunk size in MiB (2^20 bytes), 1...50. The default, 5, is S3's part size: a server whose library is in object storage takes each chunk as one part."
        ) var chunkMb: Int = 5
        @Option(name: .long, help: "Compress presets JSON (default: Presets/compress.json when present).") var presets:
            String?
        @Option(name: .long, help: "The post's caption (at most 2,200 characters; line feeds allowed).") var caption:
            String?
        @Option(name: .long, help: "The post's title (at most 100 characters).") var title: String?
        @Option(name: .long, help: "The post's creator (at most 64 characters; default: the token's name).")
        var creator: String?
        @Option(
            name: .long, help: "public (in the feeds, the default), unlisted (by link only) or private (signed URLs).")
        var visibility: String?
        @OptionGroup var limits: LimitsOption

        /// The post's fields as given, in `Upload-Metadata`'s order.
        var post: [(key: String, value: String)] {
            [("caption", caption), ("title", title), ("creator", creator), ("visibility", visibility)].compactMap {
                key, value in
                value.map { (key, $0) }
            }
        }

        func validate() throws {
            do {
                _ = try PostFacts.validated(
                    caption: caption.map { Array($0.utf8) }, title: title.map { Array($0.utf8) },
                    creator: creator.map { Array($0.utf8) }, visibility: visibility.map { Array($0.utf8) })
            } catch {
                throw ValidationError("--\(error.field.rawValue): \(error)")
            }
            guard let url = URL(string: server), ["http", "https"].contains(url.scheme?.lowercased() ?? ""),
                url.host != nil
            else {
                throw ValidationError("--server must be an http or https URL with a host, not \"\(server)\"")
            }
            guard (1...50).contains(chunkMb) else { throw ValidationError("--chunk-mb must be 1...50, not \(chunkMb)") }
            guard token == nil || tokenFile == nil else {
                throw ValidationError("give --token or --token-file, not both")
            }
            guard try resolvedToken() != nil else {
                throw ValidationError(
                    "no upload token: give --token-file or set REEL_TOKEN (reel token create makes one)")
            }
            guard ResumeStore.defaultDirectory() != nil else {
                throw ValidationError(
                    "neither XDG_CACHE_HOME nor HOME is set, so interrupted uploads could not be resumed")
            }
        }

        /// `--token` (with a warning), else `--token-file`'s first line, else `REEL_TOKEN`.
        func resolvedToken() throws -> String? {
            if let token {
                CommandLineSecrets.warn("--token", instead: "give --token-file PATH or set REEL_TOKEN")
                return Self.nonEmpty(token)
            }
            if let tokenFile { return try CommandLineSecrets.firstLine(ofFile: tokenFile, option: "--token-file") }
            return ProcessInfo.processInfo.environment["REEL_TOKEN"].flatMap(Self.nonEmpty)
        }

        static func nonEmpty(_ text: String) -> String? {
            text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty ? nil : text
        }

        func run() async throws {
            let serverURL = URL(string: server)!  // checked in validate()
            let transport = URLSessionTransport()
            let stop = StopSignal()
            var flow = UploadFlow(
                source: UploadSource(
                    policy: AdmissionPolicy(limits: try limits.load()), preset: try CompressPreset.load(option: presets)
                ),
                uploader: TusUploader(
                    server: serverURL, token: try resolvedToken()!, transport: transport, chunkBytes: chunkMb << 20),
                poller: JobPoller(server: serverURL, transport: transport, token: try resolvedToken()),
                store: ResumeStore(directory: ResumeStore.defaultDirectory()!),
                quality: quality, waitsForJob: !noWait, isCancelled: { stop.isSet }
            )
            flow.post = post
            let reporter = UploadReporter(json: json, terminal: isatty(2) != 0 && !json)
            let work = Task { [file] in try await flow.run(path: file) { reporter.report($0) } }
            stop.onSignal { work.cancel() }
            do {
                let result = try await work.value
                reporter.finish(result)
            } catch let error as UploadError {
                reporter.fail(error)
                throw ExitCode(error.exitCode)
            } catch is CancellationError {
                let error = UploadError(.interrupted, "interrupted; run the same command again to resume the upload")
                reporter.fail(error)
                throw ExitCode(error.exitCode)
            }
        }
    }
}

/// Prints `reel upload`'s events: JSON lines on stdout, or one updating line on a terminal's stderr.
private final class UploadReporter: Sendable {
    private let json: Bool
    /// Held while printing, so events from two threads never interleave on the updating line.
    private let screen: Mutex<Screen>

    init(json: Bool, terminal: Bool) {
        self.json = json
        screen = Mutex(Screen(terminal: terminal))
    }

    func report(_ event: UploadEvent) {
        screen.withLock { screen in
            if json {
                print(JSONOutput.string(event))
                fflush(nil)  // one event per line, even into a pipe
                return
            }
            switch event {
            case let .plan(plan):
                switch plan.action {
                case .uploadAsIs:
                    screen.line(
                        "\(plan.path): \(plan.kind.rawValue), \(Self.megabytes(plan.sourceBytes)) MB, sent as is")
                case let .compress(quality):
                    screen.line(
                        "\(plan.path): \(plan.kind.rawValue), \(Self.megabytes(plan.sourceBytes)) MB, compressing at \(quality.rawValue) first"
                    )
                }
            case let .compressing(percent):
                screen.update(String(format: "compressing %5.1f%%", percent))
            case let .compressed(_, bytes):
                screen.line("compressed to \(Self.megabytes(bytes)) MB")
            case let .created(url):
                screen.line("upload \(url)")
            case let .resumed(url, offset):
                screen.line("resuming \(url) at \(Self.megabytes(offset)) MB")
            case let .progress(bytes, total, rate, eta):
                let rateText = rate.map { String(format: "%.2f MB/s", $0 / 1_000_000) } ?? "-- MB/s"
                let etaText = eta.map { String(format: "ETA %.0f s", $0) } ?? "ETA --"
                screen.update("\(Self.megabytes(bytes)) / \(Self.megabytes(total)) MB  \(rateText)  \(etaText)")
            case let .uploaded(jobURL):
                screen.line("uploaded; job \(jobURL)")
            case let .job(state, percent):
                let text = "job \(state) \(percent.map { "\($0)%" } ?? "")"
                if screen.terminal { screen.update(text) } else if text != screen.lastJobLine { screen.line(text) }
                screen.lastJobLine = text
            case let .done(state, reason, _, _):
                screen.line("job \(state)\(reason.map { " (\($0))" } ?? "")")
            }
        }
    }

    func finish(_ result: UploadFlow.Result) {
        screen.withLock { screen in
            screen.endLine()
            guard !json else { return }
            if let master = result.outcome?.masterURL {
                print(master.absoluteString)
            } else if let outcome = result.outcome {
                print(outcome.job.mediaID ?? result.jobURL.absoluteString)
            } else {
                print(result.jobURL.absoluteString)
            }
        }
    }

    func fail(_ error: UploadError) {
        screen.withLock { screen in
            screen.endLine()
            if json {
                struct Failure: Encodable {
                    let event = "error"
                    let code: String
                    let message: String
                    let exitCode: Int32
                    enum CodingKeys: String, CodingKey { case event, code, message, exitCode = "exit_code" }
                }
                print(JSONOutput.string(Failure(code: error.code, message: error.message, exitCode: error.exitCode)))
            }
            printError("reel upload: \(error.code): \(error.message)")
        }
    }

    /// stderr's state: whether a terminal's updating line is open, and the last job line printed.
    private struct Screen {
        let terminal: Bool
        var lineOpen = false
        var lastJobLine = ""

        mutating func update(_ text: String) {
            guard terminal else { return }
            StandardError.write("\r\u{1B}[K" + text)
            lineOpen = true
        }

        mutating func line(_ text: String) {
            endLine()
            printError(text)
        }

        mutating func endLine() {
            if lineOpen { StandardError.write("\n") }
            lineOpen = false
        }
    }

    static func megabytes(_ bytes: Int64) -> String { String(format: "%.1f", Double(bytes) / 1_000_000) }
}

/// SIGINT/SIGTERM: sets a flag the compressor polls and cancels the network task; the resume entry stays.
/// `@unchecked Sendable`: `state` is behind a `Mutex`; `sources` is written only in init and kept only to stay alive.
private final class StopSignal: @unchecked Sendable {
    private struct State {
        var flag = false
        var handler: (@Sendable () -> Void)?
    }
    private let state = Mutex(State())
    private var sources: [any DispatchSourceSignal] = []

    init() {
        for number in [SIGINT, SIGTERM] {
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { [weak self] in self?.fire() }
            source.resume()
            sources.append(source)
        }
    }

    func onSignal(_ handler: @escaping @Sendable () -> Void) {
        let fireNow = state.withLock { state in
            state.handler = handler
            return state.flag
        }
        if fireNow { handler() }
    }

    private func fire() {
        let handler = state.withLock { state in
            state.flag = true
            return state.handler
        }
        handler?()
    }

    var isSet: Bool { state.withLock { $0.flag } }
}
