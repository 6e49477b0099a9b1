public import FileSystem
package import Sandbox

/// How a worker runs. The defaults suit a 2-core machine: one job at a time (a transcode already uses both cores).
public struct WorkerConfiguration: Sendable {
    public var inbox: String
    /// The library directory; with `objects`, this host's scratch space instead (uploads it took, staging).
    public var library: String
    /// The library in object storage (`--library s3://...`): originals and outputs are objects, and no two hosts
    /// share a directory.
    public var objects: ObjectLibrary?
    /// Jobs in parallel, each in its own process.
    public var jobs = 1
    /// A file is taken once its size and mtime have not changed for this long.
    public var settleSeconds = 2.0
    public var pollInterval = 0.25
    /// Wall-clock limit per job; CPU time is limited to this × the number of cores.
    public var jobTimeoutSeconds = 600.0
    /// Address-space limit per job process.
    public var memoryLimitMegabytes = 4096
    /// Attempts before a job that keeps failing (crashing, timing out, failing to write) ends `failed`.
    public var maxAttempts = 3
    public var backoff = Backoff()
    /// After SIGTERM, running jobs get this long to finish before they are killed and re-queued.
    public var graceSeconds = 30.0
    /// Below this much free space on the library's file system no new upload is claimed; claiming resumes once it
    /// is free again.
    public var minimumFreeBytes: Int64 = 64 << 20
    /// After a write failed for lack of space, claiming resumes when space has been freed, or after this long.
    public var diskFullRetrySeconds = 30.0
    /// How long a claimed job stays this worker's without a heartbeat. The worker renews it every third of this; once
    /// it has expired any worker (on any host) re-queues the job, and this one's commit is refused (fencing).
    public var leaseSeconds = 30.0
    /// With a catalog that announces queued jobs (PostgreSQL's NOTIFY), the queue is still looked at this often, for
    /// retries whose backoff has passed, which nothing announces.
    public var queueSweepSeconds = 2.0
    /// Process what is in the inbox, then return.
    public var once = false
    /// Starts the job processes: forked from one pre-started `reel worker-job-server` by default
    /// (`ForkingJobLauncher`); `ProcessJobLauncher` spawns `reel worker-job` each time; tests script jobs in-process.
    public var launcher: any JobLauncher = ForkingJobLauncher()
    /// The sandbox every job confines itself in before it opens its upload (`--job-sandbox`).
    package var sandbox = SandboxMode.auto
    /// Preset files passed on to every job (already validated by the caller).
    public var ladderPath: String?
    public var limitsPath: String?
    #if REEL_TEST_HOOKS
    /// Test hooks: a point where the worker dies by SIGKILL, job faults to act out, and file-system faults to raise.
    public var faults = WorkerFaults()
    #endif

    public init(inbox: String, library: String) {
        self.inbox = inbox
        self.library = library
    }
}
