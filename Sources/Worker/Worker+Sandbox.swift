internal import FeedStore
internal import Logging
internal import Metrics
internal import Sandbox

extension Worker {
    /// A finished job's sandbox, from its outcome: counted by protection, its set-up time recorded, kept for the
    /// job's report, and a warning for every job that ran with less than the full sandbox (never silently).
    func noteSandbox(_ sandbox: SandboxReport?, of job: FeedJob) {
        guard let sandbox else { return }
        sandboxes[job.id] = sandbox
        Counter(
            label: "reel_worker_job_sandbox_total", dimensions: [("protection", sandbox.protection)], factory: metrics
        ).increment()
        Timer(label: "reel_worker_job_sandbox_setup_seconds", factory: metrics)
            .recordNanoseconds(Int64(sandbox.setupMilliseconds * 1_000_000))
        if !sandbox.isComplete {
            logger.warning(
                "job ran without the full sandbox",
                metadata: [
                    "job": "\(job.id)", "sandbox": "\(sandbox.protection)",
                    "missing": "\(sandbox.missing.joined(separator: "; "))",
                ])
        }
    }
}
