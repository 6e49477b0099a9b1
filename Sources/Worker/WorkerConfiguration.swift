internal import FileSystem

/// How a worker runs. The defaults suit a 2-core machine: one job at a time (a transcode already uses both cores).
public struct WorkerConfiguration: Sendable {
    public var inbox: String
    public var library: String
    /// Jobs in parallel, each in its own process.
    public var jobs = 1
    /// A file is taken once its size and mtime have not changed for this long.
    public var settleSeconds = 2.0
    public var pollInterval = 0.25
    /// Wall-clock limit per job; CPU time is limited to this × the number of cores.
    public var jobTimeoutSeconds = 600.0
    /// Address-space limit per job process.
    public var memoryLimitMegabytes = 4096
    public var maxAttempts = 3
    public var backoff = Backoff()
    /// After SIGTERM, running jobs get this long to finish before they are killed and re-queued.
    public var graceSeconds = 30.0
    /// Process what is in the inbox, then return.
    public var once = false
    /// The `reel` binary the job processes run, and arguments passed on to `reel worker-job` (--limits, --ladder).
    public var executable = Subprocess.currentExecutable
    public var jobArguments: [String] = []

    public init(inbox: String, library: String) {
        self.inbox = inbox
        self.library = library
    }
}
