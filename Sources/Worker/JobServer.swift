internal import FileSystem
internal import Foundation
internal import LibAV

/// `reel worker-job-server`: the process every job is forked from (`ForkingJobLauncher`). It loads the codec
/// libraries once, then serves `ForkServer`'s protocol: each request is a `JobInvocation` as one line of JSON, and
/// each child runs `JobRunner.main` on it, exactly as `reel worker-job` would.
///
/// It must start single-threaded and stay so: `ReelCLI` runs it before ArgumentParser and the concurrency runtime
/// start any thread, and it does nothing that starts one.
package enum JobServer {
    /// The hidden subcommand; `ReelCLI`'s entry point recognises it first.
    package static let subcommand = "worker-job-server"

    package static func main() -> Never {
        // It must not outlive the worker; its children die with it in turn (JobRunner.main).
        ResourceLimits.dieWithParent()
        // Loaded here, each job's child inherits libav and libheif instead of opening them itself.
        CodecLibraries.preload()
        ForkServer.serve { request in
            let invocation: JobInvocation
            do { invocation = try JobInvocation(argument: request) } catch {
                StandardError.write("worker-job-server: unreadable job request: \(error)\n")
                return JobInvocation.ExitCode.failed
            }
            do {
                try StandardStreams.redirect(stdout: invocation.stdoutFile, stderr: invocation.stderrFile)
            } catch {
                StandardError.write("worker-job-server: \(error)\n")
                return JobInvocation.ExitCode.retryable
            }
            return JobRunner.main(invocation)
        }
    }
}
