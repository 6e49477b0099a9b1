import ArgumentParser
import Catalog
import CatalogEngines
import FileSystem
import Foundation
import Ingest
import Logging
import ObjectStore
import ServiceLifecycle
import Transcode
import UnixSignals
import Worker

extension Reel {
    /// `reel worker`: the watch-folder worker on its own.
    struct WorkerCommand: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "worker",
            abstract:
                "Ingest uploads dropped in an inbox: videos to the HLS ladder, images to WebP, published to the catalog.",
            discussion: """
                Each upload becomes a job (queued → processing → published | rejected | failed) run in its own process
                under memory, CPU and wall-clock limits. Published originals move to LIBRARY/originals/<id>; refused
                ones to LIBRARY/rejected/<id> beside <id>.reason.json. SIGTERM stops claiming, lets running jobs
                finish (or re-queues them after --grace) and exits 0.

                With --library s3://bucket/prefix (credentials from AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, or the
                credentials file) no directory is shared between hosts: an upload is stored as originals/<id> before
                its job is queued, and any worker fetches it into its scratch directory. In either library the outputs
                go under videos/<id>.e<epoch>/ or images/<id>.e<epoch>.webp (one claim's keys) before the catalog
                commit publishes them.
                """
        )

        @Option(name: .long, help: "Directory uploads are dropped into.") var inbox: String
        @Option(
            name: .long,
            help: "Library directory (videos/, images/, originals/, rejected/, ...), or s3://bucket/prefix.")
        var library: String
        @OptionGroup var objectStore: ObjectStoreOptions
        @Option(
            name: .long,
            help: ArgumentHelp(
                "With an s3:// library: this host's scratch directory (uploads it took, each job's staging), on the inbox's file system (default: INBOX/.scratch).",
                valueName: "dir"))
        var scratch: String?
        @Option(
            name: .long,
            help:
                "Seconds before outputs that were published but never committed (and, with an s3:// library, originals without a job) are swept."
        )
        var sweepGrace = 600.0
        @OptionGroup var database: DatabaseOption
        @Flag(name: .long, help: "Process what is in the inbox, then exit.") var once = false
        @Flag(name: .long, help: "Print one JSON line per finished job.") var json = false
        @OptionGroup var worker: WorkerOptions
        @OptionGroup var limits: LimitsOption
        @Option(name: .long, help: "Log level: trace, debug, info, notice, warning, error, critical.") var logLevel =
            "info"

        func run() async throws {
            _ = try limits.load()  // a bad limits file is a usage error here, not in every job
            let logger = ServerLogging.logger(label: "reel.worker", level: logLevel)
            var onFinished: (@Sendable (JobReport) -> Void)?
            if json {
                onFinished = { report in FileHandle.standardOutput.write(Data((JSONOutput.string(report) + "\n").utf8))
                }
            }
            // Seconds and milliseconds of it become Int64s: an unbounded value trapped the sweep.
            guard (1...315_360_000).contains(sweepGrace) else {
                throw ValidationError("--sweep-grace must be from 1 to 315360000 s (ten years), not \(sweepGrace)")
            }
            guard S3Location.isS3(library) else {
                var configuration = try self.worker.configuration(
                    inbox: inbox, libraryDirectory: library, limits: limits.limits, once: once)
                configuration.sweepGraceSeconds = sweepGrace
                return try await run(configuration, logger: logger, onFinished: onFinished)
            }
            try await objectStore.withMediaStore(library) { store in
                var configuration = self.worker.configuration(
                    inbox: inbox, scratch: scratch ?? (inbox + "/.scratch"), library: store, scratchIsShared: false,
                    limits: limits.limits, once: once)
                configuration.sweepGraceSeconds = sweepGrace
                try await run(configuration, logger: logger, onFinished: onFinished)
            }
        }

        private func run(
            _ configuration: WorkerConfiguration, logger: Logger, onFinished: (@Sendable (JobReport) -> Void)?
        ) async throws {
            // A few connections: the loop, the heartbeat and recovery, and LISTEN.
            try await CatalogOpener.with(try database.location(), connections: 4, logger: logger) {
                [onFinished] store in
                let worker = try Worker(
                    configuration: configuration, store: store, logger: logger, onFinished: onFinished)
                // SIGTERM and SIGINT shut the worker down gracefully; with --once it ends the group when it is done.
                let group = ServiceGroup(
                    configuration: .init(
                        services: [.init(service: worker, successTerminationBehavior: .gracefullyShutdownGroup)],
                        gracefulShutdownSignals: [.sigterm, .sigint], logger: logger))
                try await group.run()
            }
        }
    }

    /// `reel worker-job`: one job, run by the worker in a child process. Not for people.
    struct WorkerJob: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: JobInvocation.subcommand, abstract: "Run one worker job (internal).",
            shouldDisplay: false)

        @Option(name: .long, help: "The job, as the worker encodes it.") var invocation: String

        func run() throws {
            throw ExitCode(JobRunner.main(try JobInvocation(argument: invocation)))
        }
    }
}
