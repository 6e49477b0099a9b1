public import FeedStore
public import Logging
public import Metrics
internal import FileSystem
internal import Foundation

/// The watch-folder worker: takes finished uploads out of the inbox, runs each in its own `reel worker-job`
/// process under resource limits, and publishes the outputs atomically (files fsynced and renamed into place, then
/// one catalog transaction). Crash-safe: every step leaves the upload in exactly one recoverable place.
public final class Worker: @unchecked Sendable {
    public let configuration: WorkerConfiguration
    public let store: FeedStore
    let layout: LibraryLayout
    let logger: Logger
    let metrics: any MetricsFactory
    /// This process's token in the jobs table; its lock file tells other workers it is alive.
    let owner: String
    private let lock: FileLock
    var tracker: StabilityTracker
    var running: [String: RunningJob] = [:]
    var lastRecovery = 0.0
    let faultPoint: String?
    /// Called for each finished job (the CLI's `--json` lines).
    public var onFinished: (@Sendable (JobReport) -> Void)?

    struct RunningJob {
        var job: FeedJob
        let process: Subprocess
        let started: Double
        var reportedProgress = 0.0
        var lastProgressCheck = 0.0
    }

    public init(configuration: WorkerConfiguration, store: FeedStore, logger: Logger,
                metrics: any MetricsFactory = MetricsSystem.factory) throws {
        self.configuration = configuration
        self.store = store
        self.logger = logger
        self.metrics = metrics
        layout = LibraryLayout(root: configuration.library)
        for directory in layout.allDirectories + [configuration.inbox] { try Directory.create(directory) }
        // Taking an upload is a rename out of the inbox: atomic, and the claim between workers. That needs one file system.
        let inboxDevice = try FileManager.default.attributesOfItem(atPath: configuration.inbox)[.systemNumber] as? NSNumber
        let libraryDevice = try FileManager.default.attributesOfItem(atPath: layout.incoming)[.systemNumber] as? NSNumber
        guard inboxDevice == libraryDevice else {
            throw WorkerSetupError(description: "\(configuration.inbox) and \(configuration.library) are on different file systems; "
                                   + "the inbox and the library must share one, because uploads are renamed (the claim), never copied")
        }
        owner = UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "")
        guard let lock = try FileLock(path: layout.lock(owner)) else {
            throw FileSystemError("flock", layout.lock(owner), code: EWOULDBLOCK)
        }
        self.lock = lock
        tracker = StabilityTracker(settle: configuration.settleSeconds)
        faultPoint = ProcessInfo.processInfo.environment["REEL_FAULT_INJECTION"]
    }

    deinit { try? FileManager.default.removeItem(atPath: lock.path) }

    /// Runs until `shouldStop` turns true (then stops taking work, lets running jobs finish for the grace period,
    /// re-queues the rest and returns), or with `once`, until the inbox and the queue are empty.
    public func run(shouldStop: @Sendable () -> Bool) throws {
        logger.info("worker started", metadata: ["inbox": "\(configuration.inbox)", "library": "\(configuration.library)",
                                                  "jobs": "\(configuration.jobs)", "owner": "\(owner)"])
        try recover()
        var stopSince: Double?
        var lastScan = -Double.infinity
        while true {
            let now = Self.monotonic
            if stopSince == nil && shouldStop() {
                stopSince = now
                logger.info("stopping: no new jobs are claimed", metadata: ["running": "\(running.count)"])
            }
            if stopSince == nil {
                if now - lastScan >= configuration.pollInterval {
                    lastScan = now
                    try intake()
                }
                if now - lastRecovery > 2 { try recover() }
                try fillSlots()
            }
            let before = running.count
            try pollRunning()
            if stopSince == nil && running.count < before { try fillSlots() }  // a freed slot is refilled at once
            if let stopSince {
                if running.isEmpty { break }
                if now - stopSince > configuration.graceSeconds {
                    try abandonRunning()
                    break
                }
            } else if configuration.once, running.isEmpty, try isIdle() {
                break
            }
            // Job processes are checked every 10 ms (a finished job frees its slot at once); the inbox is scanned
            // every poll interval.
            Thread.sleep(forTimeInterval: running.isEmpty ? configuration.pollInterval : min(configuration.pollInterval, 0.01))
        }
        logger.info("worker stopped", metadata: ["owner": "\(owner)"])
    }

    /// Nothing left to do for `--once`: no upload waiting in the inbox and no queued job.
    func isIdle() throws -> Bool {
        let waiting = try Directory.entries(of: configuration.inbox).contains { !$0.isIgnored }
        if waiting { return false }
        return try store.jobCounts()[.queued] ?? 0 == 0
    }

    static var monotonic: Double { ProcessInfo.processInfo.systemUptime }
    static var nowMilliseconds: Int64 { Int64(Date().timeIntervalSince1970 * 1000) }

    static func newID() -> String {
        String(UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "").prefix(20))
    }

    public struct WorkerSetupError: Error, CustomStringConvertible {
        public let description: String
    }

    /// Test hook: dies by SIGKILL at a named point of publishing, to prove recovery (REEL_FAULT_INJECTION).
    func reach(_ point: String) {
        if faultPoint == point {
            logger.warning("fault injection: SIGKILL", metadata: ["point": "\(point)"])
            kill(getpid(), SIGKILL)
        }
    }
}
