import ArgumentParser
import FeedStore
import FileSystem
import Ingest
import Foundation
import Logging
import Transcode
import Worker

extension Reel {
    /// `reel worker`: the watch-folder worker on its own.
    struct WorkerCommand: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "worker",
            abstract: "Ingest uploads dropped in an inbox: videos to the HLS ladder, images to WebP, published to the catalog.",
            discussion: """
                Each upload becomes a job (queued → processing → published | rejected | failed) run in its own process
                under memory, CPU and wall-clock limits. Published originals move to LIBRARY/originals/<id>; refused
                ones to LIBRARY/rejected/<id> beside <id>.reason.json. SIGTERM stops claiming, lets running jobs
                finish (or re-queues them after --grace) and exits 0.
                """
        )

        @Option(name: .long, help: "Directory uploads are dropped into.") var inbox: String
        @Option(name: .long, help: "Library directory (videos/, images/, originals/, rejected/, ...).") var library: String
        @Option(name: .long, help: "SQLite catalog (created and migrated when missing).") var database: String
        @Flag(name: .long, help: "Process what is in the inbox, then exit.") var once = false
        @Flag(name: .long, help: "Print one JSON line per finished job.") var json = false
        @OptionGroup var worker: WorkerOptions
        @OptionGroup var limits: LimitsOption
        @Option(name: .long, help: "Log level: trace, debug, info, notice, warning, error, critical.") var logLevel = "info"

        func run() async throws {
            _ = try limits.load()  // a bad limits file is a usage error here, not in every job
            let logger = ServerLogging.logger(label: "reel.worker", level: logLevel)
            let store = FeedStore(database: try FeedDatabase(path: database))
            let worker = try Worker(configuration: self.worker.configuration(inbox: inbox, library: library, limits: limits.limits, once: once),
                                    store: store, logger: logger)
            if json {
                worker.onFinished = { report in
                    FileHandle.standardOutput.write(Data((JSONOutput.string(report) + "\n").utf8))
                }
            }
            let interrupt = Interrupt()
            try worker.run(shouldStop: { interrupt.isSet })
        }
    }

    /// `reel worker-job`: one job, run by the worker in a child process. Not for people.
    struct WorkerJob: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "worker-job", abstract: "Run one worker job (internal).",
                                                        shouldDisplay: false)

        @Option(name: .long) var source: String
        @Option(name: .long) var staging: String
        @Option(name: .long) var memoryMb: Int
        @Option(name: .long) var cpuSeconds: Int
        @Option(name: .long) var ladder: String?
        @OptionGroup var limits: LimitsOption

        func run() throws {
            // Limits before the upload is opened: nothing the file makes libav do can exceed them.
            ResourceLimits.dieWithParent()
            do {
                try ResourceLimits.apply(addressSpace: memoryMb << 20, cpuSeconds: cpuSeconds)
            } catch {
                printError("worker-job: \(error)")
                throw ExitCode(JobOutcome.ExitCode.retryable)
            }
            // Fault injection for the worker's tests: a job that crashes or hangs the way a libav bug would.
            switch ProcessInfo.processInfo.environment["REEL_FAULT_INJECTION"] {
            case "job-crash": UnsafeMutablePointer<UInt8>(bitPattern: 8)!.pointee = 1  // a real fault, as a decoder bug makes
            case "job-hang": while true { sleep(60) }
            case "job-transient":
                throw ExitCode(JobRunner.record(JobOutcome(status: .failed, reason: "output_failed",
                                                           message: "injected: No space left on device", retryable: true), staging: staging))
            default: break
            }
            let preset = try ladder.map { try LadderPreset.load(from: $0) } ?? .default
            let runner = JobRunner(policy: .init(limits: try limits.load()), ladder: preset)
            throw ExitCode(runner.run(source: source, staging: staging))
        }
    }
}
