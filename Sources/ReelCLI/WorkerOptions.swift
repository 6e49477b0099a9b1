import ArgumentParser
import FileSystem
import Foundation
import MediaModel
import MediaStore
import MediaStoreDirectory
import Sandbox
import Transcode
import Worker

/// The worker's options, shared by `reel worker` and `reel serve --inbox`.
struct WorkerOptions: ParsableArguments {
    @Option(name: .long, help: "Jobs in parallel, each in its own process (default: 1 per 2 cores).") var jobs: Int?
    @Option(name: .long, help: "Seconds a file's size and mtime must stay unchanged before it is taken.") var settle =
        2.0
    @Option(name: .long, help: "Seconds between inbox scans.") var pollInterval = 0.25
    @Option(name: .long, help: "Wall-clock seconds a job may run before it is killed (reason: timeout).")
    var jobTimeout = 600.0
    @Option(name: .long, help: "Address-space limit per job process, in MB.") var jobMemoryMb = 4096
    @Option(name: .long, help: "Attempts for transient failures (with exponential backoff).") var maxAttempts = 3
    @Option(name: .long, help: "Seconds running jobs get to finish after SIGTERM before they are re-queued.")
    var grace = 30.0
    @Option(name: .long, help: "Ladder preset JSON (default: Presets/ladder.json when present).") var ladder: String?
    @Option(name: .long, help: "Stop claiming uploads while the library's file system has less than this many MB free.")
    var minFreeMb = 64
    @Option(
        name: .long,
        help: "Seconds a claimed job stays this worker's without a heartbeat; after that any worker re-queues it.")
    var leaseSeconds = 30.0
    @Option(
        name: .long,
        help: ArgumentHelp(
            "Each job's sandbox: auto (Landlock and seccomp, or user and mount namespaces and seccomp where the kernel has no Landlock), namespaces (that fallback, always), off (unconfined; for measurements).",
            valueName: "auto|namespaces|off"))
    var jobSandbox = "auto"

    func validate() throws {
        if let jobs, !(1...64).contains(jobs) { throw ValidationError("--jobs must be from 1 to 64") }
        guard settle >= 0, pollInterval > 0, pollInterval <= 60 else {
            throw ValidationError("--settle must be ≥ 0 and --poll-interval in (0, 60]")
        }
        // Whole seconds × cores become the job's CPU limit, an Int: an unbounded value trapped the worker.
        guard (1...604_800).contains(jobTimeout) else {
            throw ValidationError("--job-timeout must be from 1 to 604800 s (a week), not \(jobTimeout)")
        }
        guard jobMemoryMb >= 256 else { throw ValidationError("--job-memory-mb must be at least 256") }
        guard (1...20).contains(maxAttempts) else { throw ValidationError("--max-attempts must be from 1 to 20") }
        guard grace >= 0 else { throw ValidationError("--grace must be ≥ 0") }
        guard minFreeMb >= 0 else { throw ValidationError("--min-free-mb must be ≥ 0") }
        guard (1...3600).contains(leaseSeconds) else { throw ValidationError("--lease-seconds must be from 1 to 3600") }
        guard SandboxMode(rawValue: jobSandbox) != nil else {
            throw ValidationError("--job-sandbox must be auto, namespaces or off, not \(jobSandbox)")
        }
        _ = try LadderPreset.load(option: ladder)  // a bad ladder file is a usage error at start, not in every job
    }

    /// A worker on the library directory `library`, which is also its scratch directory, shared by every host.
    /// - Throws: `FileSystemError` when the directory cannot be made, `MediaStoreError` when it cannot be resolved.
    func configuration(
        inbox: String, libraryDirectory library: String, limits: String?, once: Bool
    ) throws
        -> WorkerConfiguration
    {
        try Directory.create(absolute(library))
        return configuration(
            inbox: inbox, scratch: library, library: try DirectoryMediaStore(root: absolute(library)),
            scratchIsShared: true, limits: limits, once: once)
    }

    func configuration(
        inbox: String, scratch: String, library: any MediaStore, scratchIsShared: Bool, limits: String?, once: Bool
    ) -> WorkerConfiguration {
        // The jobs run in other processes, maybe from another directory: every path they get is absolute.
        var configuration = WorkerConfiguration(
            inbox: absolute(inbox), scratch: absolute(scratch), library: library, scratchIsShared: scratchIsShared)
        configuration.jobs = jobs ?? max(1, ProcessInfo.processInfo.activeProcessorCount / 2)
        configuration.settleSeconds = settle
        configuration.pollInterval = pollInterval
        configuration.leaseSeconds = leaseSeconds
        configuration.jobTimeoutSeconds = jobTimeout
        configuration.memoryLimitMegabytes = jobMemoryMb
        configuration.maxAttempts = maxAttempts
        configuration.graceSeconds = grace
        configuration.once = once
        configuration.minimumFreeBytes = Int64(minFreeMb) << 20
        configuration.sandbox = SandboxMode(rawValue: jobSandbox) ?? .auto
        #if REEL_TEST_HOOKS
        configuration.faults = WorkerFaults(
            environmentValue: ProcessInfo.processInfo.environment["REEL_FAULT_INJECTION"])
        #endif
        configuration.ladderPath = LadderPreset.path(option: ladder).map(absolute)
        configuration.limitsPath = AdmissionLimits.path(option: limits).map(absolute)
        return configuration
    }

    private func absolute(_ path: String) -> String {
        path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
    }
}
