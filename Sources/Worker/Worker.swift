package import Catalog
internal import Deadlines
internal import FileSystem
internal import Foundation
package import Logging
internal import MediaModel
internal import MediaStore
package import Metrics
internal import NIOCore
internal import NIOPosix
internal import Sandbox
package import ServiceLifecycle

/// The watch-folder worker: takes finished uploads out of the inbox, runs each in its own job process under resource
/// limits, and publishes the outputs into the library (`MediaStore`, a directory or object storage, written once
/// against the seam) under the claim's own keys, then one catalog transaction makes them the feed's.
/// Crash-safe: every step leaves the upload in exactly one recoverable place. A fault in one job (a full disk, an
/// I/O error, a busy catalog, a job that cannot start or keeps crashing) fails or retries that job; the worker goes on.
///
/// It is an actor on a thread of its own (`executorGroup`): its file-system calls block, and must hold up neither the
/// concurrency pool that serves HTTP in `reel serve --inbox` nor an event loop that carries connections (the
/// catalog's PostgreSQL connections run on a group of their own). Whole-file hashing goes to NIO's thread pool.
package actor Worker: Service {
    package let configuration: WorkerConfiguration
    /// The job queue and publishing: the worker reads no feed and takes no upload over HTTP.
    package let store: any JobQueue & Publishing
    /// Disk state for `/healthz`.
    package nonisolated let status = WorkerStatus()
    /// This host's working directory: `.incoming/`, `.staging/`, `.workers/`.
    let scratch: ScratchLayout
    /// The library: outputs, originals, verdicts.
    nonisolated var library: any MediaStore { configuration.library }
    let logger: Logger
    let metrics: any MetricsFactory
    /// This process's token in the jobs table; its lock file tells other workers it is alive.
    let owner: String
    private let lock: FileLock
    private nonisolated let executorLoop: any EventLoop
    private let stop = StopFlag()
    var tracker: StabilityTracker
    var running: [String: RunningJob] = [:]
    /// What each finishing job's outcome says of its process (its sandbox, its CPU), until the job's report is
    /// written.
    var processFacts: [String: ProcessFacts] = [:]
    /// Jobs whose failure could not be recorded (the catalog was away), until recovery sees whether this worker still
    /// holds them: if it does, recovery re-queues them; if not, another worker took them over, and the log says so.
    var unrecorded: [String: FeedJob] = [:]
    var disk: DiskPressure
    var lastRecovery = -Double.infinity
    /// The library's sweep: it runs beside the loop, so a store that is slow to answer a listing never holds up
    /// heartbeats or claims.
    var lastSweep = -Double.infinity
    var sweep: Task<Void, Never>?
    var lastDiskCheck = -Double.infinity
    var lastHeartbeat = -Double.infinity
    /// When the queue was last looked at, and whether the catalog announced a claimable job since.
    var lastQueueLook = -Double.infinity
    var queueAnnounced = true
    /// Called for each finished job (the CLI's `--json` lines).
    let onFinished: (@Sendable (JobReport) -> Void)?

    struct RunningJob {
        var job: FeedJob
        let invocation: JobInvocation
        let process: any JobProcess
        let started: Double
        var reportedProgress = 0.0
        var lastProgressCheck = 0.0
        /// Its provisional rendition, published while it runs (issue 64).
        var playable = PlayableSync()
        /// When the lease was last renewed (monotonic seconds): past `leaseSeconds` it has surely expired.
        var leaseRenewed: Double
        var lease: JobLease { job.lease }
    }

    struct ProcessFacts {
        var sandbox: SandboxReport?
        var cpuSeconds: Double?
    }

    package nonisolated var unownedExecutor: UnownedSerialExecutor { executorLoop.executor.asUnownedSerialExecutor() }

    /// - Throws: `FileSystemError` when the scratch directory cannot be laid out or locked, `WorkerSetupError` when
    ///   the inbox and the scratch directory are on different file systems.
    package init(
        configuration: WorkerConfiguration, store: any JobQueue & Publishing, logger: Logger,
        metrics: any MetricsFactory = MetricsSystem.factory,
        onFinished: (@Sendable (JobReport) -> Void)? = nil
    ) throws {
        self.configuration = configuration
        self.store = store
        self.logger = logger
        self.metrics = metrics
        self.onFinished = onFinished
        let scratch = ScratchLayout(root: configuration.scratch)
        self.scratch = scratch
        var directories = scratch.allDirectories + [configuration.inbox]
        if configuration.scratchIsShared {
            // The scratch directory is the library's: its folders are there from the start, as a reader expects.
            directories += [LibraryLayout.videos, LibraryLayout.images, LibraryLayout.originals, LibraryLayout.failed]
                .map { scratch.root + "/" + $0.dropLast() }
        }
        for directory in directories { try Directory.create(directory) }
        // Taking an upload is a rename out of the inbox: atomic, and the claim between workers. That needs one file system.
        guard
            try FileStatus(path: configuration.inbox, followingSymlinks: true).device
                == FileStatus(path: scratch.incoming, followingSymlinks: true).device
        else {
            throw WorkerSetupError(
                description: "\(configuration.inbox) and \(configuration.scratch) are on different file systems; "
                    + "the inbox and the library must share one, because uploads are renamed (the claim), never copied")
        }
        owner = UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "")
        guard let lock = try FileLock(path: scratch.lock(owner)) else {
            throw FileSystemError("flock", scratch.lock(owner), code: EWOULDBLOCK)
        }
        self.lock = lock
        tracker = StabilityTracker(settle: configuration.settleSeconds)
        disk = DiskPressure(
            minimumFreeBytes: configuration.minimumFreeBytes, retrySeconds: configuration.diskFullRetrySeconds)
        executorLoop = Self.executorGroup.next()
    }

    deinit { Directory.remove(lock.path) }

    /// The thread every worker in this process runs on: blocking file-system work happens there and nowhere else.
    static let executorGroup = MultiThreadedEventLoopGroup(numberOfThreads: 1)

    /// Runs until graceful shutdown (then stops claiming, lets running jobs finish for the grace period, re-queues
    /// the rest and returns), until cancelled (running jobs are re-queued at once), or with `once`, until the inbox
    /// and the queue are empty.
    package func run() async throws {
        await withGracefulShutdownHandler {
            await self.loop()
        } onGracefulShutdown: { [stop] in
            stop.set()
        }
    }

    /// Asks the loop to stop as graceful shutdown would (for callers outside a ServiceGroup).
    package nonisolated func requestStop() { stop.set() }

    private func loop() async {
        logger.info(
            "worker started",
            metadata: [
                "inbox": "\(configuration.inbox)",
                "library": "\(configuration.library.name)", "scratch": "\(configuration.scratch)",
                "jobs": "\(configuration.jobs)", "owner": "\(owner)",
                "job_sandbox": "\(Sandbox.expectedProtection(mode: configuration.sandbox))",
            ])
        if configuration.sandbox == .off {
            logger.warning(
                "jobs run unconfined (--job-sandbox off): an upload's libav sees this host's files and network")
        }
        var stopSince: Double?
        var lastScan = -Double.infinity
        while true {
            if Task.isCancelled {
                await abandonRunning()
                break
            }
            let now = Self.monotonic
            if stopSince == nil && stop.isSet {
                stopSince = now
                logger.info("stopping: no new jobs are claimed", metadata: ["running": "\(running.count)"])
            }
            if stopSince == nil {
                if now - lastRecovery > 2 { await guarded("recovery") { try await recover() } }
                if sweep == nil, now - lastSweep >= configuration.sweepSeconds {
                    lastSweep = now
                    sweep = Task { await self.runSweep() }
                }
                checkDisk(now: now)
                if !disk.isPaused {
                    if now - lastScan >= configuration.pollInterval {
                        lastScan = now
                        await guarded("inbox scan") { try await intake() }
                    }
                    if queueAnnounced || now - lastQueueLook >= configuration.queueSweepSeconds { await fillSlots() }
                }
            }
            let before = running.count
            await pollRunning()
            // a freed slot is refilled at once
            if stopSince == nil && running.count < before && !disk.isPaused { await fillSlots() }
            await renewLeases()
            if let stopSince {
                if running.isEmpty { break }
                if now - stopSince > configuration.graceSeconds {
                    await abandonRunning()
                    break
                }
            } else if configuration.once, running.isEmpty, !disk.isPaused, await isIdle() {
                // Last sweeps file verdicts that could not be filed earlier (a passing fault); they may re-queue work.
                for _ in 0..<3 {
                    if !hasUnfiledUploads(), await isIdle() { break }
                    await guarded("recovery") { try await recover() }
                }
                if await isIdle() { break }
            }
            // Running jobs are looked at every 10 ms at the latest, and at once when the launcher hears one end (a
            // finished job frees its slot at once); the inbox is scanned every poll interval.
            if running.isEmpty {
                // Idle: PostgreSQL's NOTIFY wakes the worker when a job is queued anywhere; SQLite just waits.
                if await store.waitForQueuedJob(upTo: configuration.pollInterval) { queueAnnounced = true }
            } else {
                await configuration.launcher.waitForActivity(upTo: min(configuration.pollInterval, 0.01))
            }
        }
        if let sweep {
            sweep.cancel()
            if await value(of: sweep, upTo: .seconds(30)) == nil {
                logger.warning("the library's sweep did not stop within 30 s; it is left to end on its own")
            }
        }
        logger.info("worker stopped", metadata: ["owner": "\(owner)"])
    }

    func runSweep() async {
        await guarded("library sweep") { try await sweepLibrary() }
        sweep = nil
    }

    /// Runs one phase of the loop; its failure is logged and the loop goes on (a fault is a state, not an exit).
    func guarded(_ phase: String, _ body: () async throws -> Void) async {
        do {
            try await body()
        } catch {
            if Self.isDiskFull(error) { noteDiskFull(error) }
            logger.error("\(phase) failed; the worker goes on", metadata: ["error": "\(error)"])
        }
    }

    /// Nothing left to do for `--once`: no upload waiting in the inbox and no queued job.
    func isIdle() async -> Bool {
        guard let entries = try? Directory.entries(of: configuration.inbox),
            !entries.contains(where: { !$0.isIgnored && !$0.isSidecar })
        else {
            return false
        }
        guard let counts = try? await store.jobCounts() else { return false }
        return (counts[.queued] ?? 0) == 0
    }

    /// Uploads still in `.incoming/` that no running job holds.
    func hasUnfiledUploads() -> Bool {
        ((try? Directory.entries(of: scratch.incoming)) ?? []).contains {
            running[String(decoding: $0.name, as: UTF8.self)] == nil
        }
    }

    static var monotonic: Double { ProcessInfo.processInfo.systemUptime }
    static var nowMilliseconds: Int64 { Int64(Date().timeIntervalSince1970 * 1000) }
    var leaseMilliseconds: Int64 { Int64(configuration.leaseSeconds * 1000) }

    static func newID() -> String { LibraryLayout.newID() }

    package struct WorkerSetupError: Error, CustomStringConvertible {
        package let description: String
    }

    #if REEL_TEST_HOOKS
    /// Test hook: dies by SIGKILL at a named point of publishing, to prove recovery.
    func reach(_ point: String) {
        if configuration.faults.killPoint == point {
            logger.warning("fault injection: SIGKILL", metadata: ["point": "\(point)"])
            kill(getpid(), SIGKILL)
        }
    }
    #endif
}
