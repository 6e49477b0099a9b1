package import FileSystem
package import Sandbox

/// How a worker runs. The defaults suit a 2-core machine: one job at a time (a transcode already uses both cores).
package struct WorkerConfiguration: Sendable {
    package var inbox: String
    /// The library directory; with `objects`, this host's scratch space instead (uploads it took, staging).
    package var library: String
    /// The library in object storage (`--library s3://...`): originals and outputs are objects, and no two hosts
    /// share a directory.
    package var objects: ObjectLibrary?
    /// Jobs in parallel, each in its own process.
    package var jobs = 1
    /// A file is taken once its size and mtime have not changed for this long.
    package var settleSeconds = 2.0
    package var pollInterval = 0.25
    /// Wall-clock limit per job; CPU time is limited to this × the number of cores.
    package var jobTimeoutSeconds = 600.0
    /// Address-space limit per job process.
    package var memoryLimitMegabytes = 4096
    /// Attempts before a job that keeps failing (crashing, timing out, failing to write) ends `failed`.
    package var maxAttempts = 3
    package var backoff = Backoff()
    /// After SIGTERM, running jobs get this long to finish before they are killed and re-queued.
    package var graceSeconds = 30.0
    /// Below this much free space on the library's file system no new upload is claimed; claiming resumes once it
    /// is free again.
    package var minimumFreeBytes: Int64 = 64 << 20
    /// After a write failed for lack of space, claiming resumes when space has been freed, or after this long.
    package var diskFullRetrySeconds = 30.0
    /// How long a claimed job stays this worker's without a heartbeat. The worker renews it every third of this; once
    /// it has expired any worker (on any host) re-queues the job, and this one's commit is refused (fencing).
    package var leaseSeconds = 30.0
    /// With a catalog that announces queued jobs (PostgreSQL's NOTIFY), the queue is still looked at this often, for
    /// retries whose backoff has passed, which nothing announces.
    package var queueSweepSeconds = 2.0
    /// Process what is in the inbox, then return.
    package var once = false
    /// Starts the job processes: forked from one pre-started `reel worker-job-server` by default
    /// (`ForkingJobLauncher`); `ProcessJobLauncher` spawns `reel worker-job` each time; tests script jobs in-process.
    package var launcher: any JobLauncher = ForkingJobLauncher()
    /// The sandbox every job confines itself in before it opens its upload (`--job-sandbox`).
    package var sandbox = SandboxMode.auto
    /// Preset files passed on to every job (already validated by the caller).
    package var ladderPath: String?
    package var limitsPath: String?
    #if REEL_TEST_HOOKS
    /// Test hooks: a point where the worker dies by SIGKILL, job faults to act out, and file-system faults to raise.
    package var faults = WorkerFaults()
    #endif

    package init(inbox: String, library: String) {
        self.inbox = inbox
        self.library = library
    }
}
