package import FileSystem
internal import Foundation

/// Starts job processes. The worker's state machine talks only to this seam, so tests can drive publishing,
/// retries, give-ups, recovery and duplicates in-process with scripted jobs; production spawns `reel worker-job`.
package protocol JobLauncher: Sendable {
    /// Starts the job; the returned process is polled until it ends.
    /// - Throws: `FileSystemError` when the process cannot be started (the job then fails as `spawn_failed`).
    func launch(_ invocation: JobInvocation) throws(FileSystemError) -> any JobProcess
    /// Returns when a launched process may have ended, or after `seconds` at the latest.
    func waitForActivity(upTo seconds: Double) async
}

extension JobLauncher {
    /// Without a way to hear of an end, the worker looks again after `seconds`.
    package func waitForActivity(upTo seconds: Double) async {
        try? await Task.sleep(for: .milliseconds(Int(seconds * 1000)))
    }
}

/// A running job, observed without blocking.
package protocol JobProcess: Sendable {
    var pid: Int32 { get }
    /// The termination once it has ended, nil while it runs.
    func poll() -> Subprocess.Termination?
    /// Ends it now (the whole process group) and returns how it ended.
    func kill() -> Subprocess.Termination
}

extension Subprocess: JobProcess {}
extension ForkedProcess: JobProcess {}

/// The production launcher: `reel worker-job --invocation JSON` in its own process group, stdout and stderr to files
/// in the staging directory, with a small, fixed environment.
package struct ProcessJobLauncher: JobLauncher {
    package var executable: String

    package init(executable: String = Subprocess.currentExecutable) { self.executable = executable }

    package func launch(_ invocation: JobInvocation) throws(FileSystemError) -> any JobProcess {
        try Subprocess(
            invocation.commandLine(executable: executable), environment: Self.jobEnvironment,
            stdout: invocation.stdoutFile, stderr: invocation.stderrFile)
    }

    /// Few malloc arenas keep the address-space limit meaningful; no Swift backtracer (a crash is recorded, not
    /// symbolicated for a second while the job holds its slot). A sanitizer build's options pass through
    /// (scripts/sanitize.sh): without their `log_path` a job's report would go to its stderr.log, deleted with its
    /// staging directory.
    static var jobEnvironment: [String: String] {
        var environment = ["MALLOC_ARENA_MAX": "2", "LC_ALL": "C", "SWIFT_BACKTRACE": "enable=no"]
        let inherited = ProcessInfo.processInfo.environment
        for name in ["PATH", "ASAN_OPTIONS", "LSAN_OPTIONS", "UBSAN_OPTIONS"] {
            if let value = inherited[name] { environment[name] = value }
        }
        return environment
    }
}

/// The launcher the worker uses: every job is forked from one pre-started `reel worker-job-server` (`JobServer`)
/// instead of being a new `reel` process. A job is still a process of its own, in its own process group, under its
/// own limits, and is killed the same way; it only skips `execve`, dynamic linking and the runtime's start-up,
/// which cost about 25 ms a job (a quarter of a small photo's). The server starts on the first job and again if it
/// dies.
package struct ForkingJobLauncher: JobLauncher {
    private let server: ForkServerClient

    package init(executable: String = Subprocess.currentExecutable) {
        server = ForkServerClient(
            arguments: [executable, JobServer.subcommand], environment: ProcessJobLauncher.jobEnvironment)
    }

    package func launch(_ invocation: JobInvocation) throws(FileSystemError) -> any JobProcess {
        try server.start(invocation.requestLine)
    }

    /// The server writes a line when a child ends: the worker wakes on it instead of at its next 10 ms look (about
    /// 5 ms a job with one job at a time). The wait blocks a thread of its own, never the worker's event loop.
    package func waitForActivity(upTo seconds: Double) async {
        let server = self.server
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            Self.waiting.async {
                server.waitForReport(timeout: seconds)
                continuation.resume()
            }
        }
    }

    private static let waiting = DispatchQueue(label: "reel.worker.job-reports")
}
