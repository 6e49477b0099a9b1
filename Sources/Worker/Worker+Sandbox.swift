internal import Catalog
internal import Logging
internal import Metrics
internal import Sandbox

extension Worker {
    /// A finished job's sandbox, from its outcome: counted by protection, its set-up time recorded, and a warning for every job that asked for the sandbox and ran with less (never silently).
    /// With `--job-sandbox off` the worker warned once at start, and each job's report says `none`.
    func noteSandbox(_ sandbox: SandboxReport?, of job: FeedJob) {
        guard let sandbox else { return }
        Counter(
            label: "reel_worker_job_sandbox_total", dimensions: [("protection", sandbox.protection)], factory: metrics
        ).increment()
        Timer(label: "reel_worker_job_sandbox_setup_seconds", factory: metrics)
            .recordNanoseconds(Int64(sandbox.setupMilliseconds * 1_000_000))
        if sandbox.mode != .off && !sandbox.isComplete {
            logger.warning(
                "job ran without the full sandbox",
                metadata: [
                    "job": "\(job.id)", "sandbox": "\(sandbox.protection)",
                    "missing": "\(sandbox.missing.joined(separator: "; "))",
                ])
        }
    }
}
