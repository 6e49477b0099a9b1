public import FileSystem
internal import Foundation

/// Starts job processes. The worker's state machine talks only to this seam, so tests can drive publishing,
/// retries, give-ups, recovery and duplicates in-process with scripted jobs; production spawns `reel worker-job`.
public protocol JobLauncher: Sendable {
    /// Starts the job; the returned process is polled until it ends.
    /// - Throws: `FileSystemError` when the process cannot be started (the job then fails as `spawn_failed`).
    func launch(_ invocation: JobInvocation) throws(FileSystemError) -> any JobProcess
}

/// A running job, observed without blocking.
public protocol JobProcess: Sendable {
    var pid: Int32 { get }
    /// The termination once it has ended, nil while it runs.
    func poll() -> Subprocess.Termination?
    /// Ends it now (the whole process group) and returns how it ended.
    func kill() -> Subprocess.Termination
}

extension Subprocess: JobProcess {}

/// The production launcher: `reel worker-job --invocation JSON` in its own process group, stdout and stderr to files
/// in the staging directory, with a small, fixed environment.
public struct ProcessJobLauncher: JobLauncher {
    public var executable: String

    public init(executable: String = Subprocess.currentExecutable) { self.executable = executable }

    public func launch(_ invocation: JobInvocation) throws(FileSystemError) -> any JobProcess {
        // Few malloc arenas keep the address-space limit meaningful; no Swift backtracer (a crash is recorded, not
        // symbolicated for a second while the job holds its slot).
        var environment = ["MALLOC_ARENA_MAX": "2", "LC_ALL": "C", "SWIFT_BACKTRACE": "enable=no"]
        if let path = ProcessInfo.processInfo.environment["PATH"] { environment["PATH"] = path }
        return try Subprocess(invocation.commandLine(executable: executable), environment: environment,
                              stdout: invocation.stdoutFile, stderr: invocation.stderrFile)
    }
}
