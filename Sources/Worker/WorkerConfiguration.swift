package import FileSystem
package import MediaStore
package import Sandbox

/// How a worker runs. The defaults suit a 2-core machine: one job at a time (a transcode already uses both cores).
package struct WorkerConfiguration: Sendable {
    package var inbox: String
    /// The library (`MediaStore`): published outputs, originals and verdicts, in a directory or in object storage.
    package var library: any MediaStore
    /// This host's working directory (`ScratchLayout`): the uploads it took, each claim's staging, the lock files. On
    /// the inbox's file system, since taking an upload is a rename.
    package var scratch: String
    /// Whether `scratch` is the library's own directory, which every host working on the library sees: an upload taken
    /// into `.incoming/` is then already the library's (any host's worker processes it from there, and it is filed
    /// beside its verdict by rename), and a holder's lock file says whether it is alive. Otherwise (object storage, or
    /// a library directory elsewhere) the upload is stored as `originals/<id>` before its job is queued and stays
    /// there whatever the verdict, and only a lease can say that another host's worker died.
    package var scratchIsShared: Bool
    /// How long a claim's outputs that were never committed (or an original without a job) are left alone before the
    /// sweep deals with them. Long enough for any claim still publishing; outputs are never read before the commit.
    package var sweepGraceSeconds = 600.0
    /// How often one worker lists the library for the sweep. Each sweep lists `videos/` and `images/` whole (a walk of
    /// those folders in a directory library), and a job's next claim already removes its earlier claims' outputs:
    /// the sweep is for the rarer leftovers (a fenced-out worker that published late, a job that is gone).
    package var sweepSeconds = 300.0
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
    /// Below this much free space on the scratch directory's file system (the library's, when it is shared) no new
    /// upload is claimed; claiming resumes once it is free again.
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

    package init(inbox: String, scratch: String, library: any MediaStore, scratchIsShared: Bool) {
        self.inbox = inbox
        self.scratch = scratch
        self.library = library
        self.scratchIsShared = scratchIsShared
    }
}
