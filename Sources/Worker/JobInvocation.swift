internal import Foundation
package import Sandbox

/// The whole contract between the worker and its job process (`reel worker-job --invocation JSON`): what to run,
/// under which limits, where the outcome goes and what the exit codes mean. `ReelCLI` only forwards it.
package struct JobInvocation: Codable, Sendable, Equatable {
    package var jobID: String
    /// The claimed upload (`.incoming/<id>`): a server-generated name, never the uploader's.
    package var source: String
    /// The job's private directory; everything the job writes goes here.
    package var staging: String
    package var memoryMegabytes: Int
    package var cpuSeconds: Int
    /// Preset files, already validated by the worker at start.
    package var ladderPath: String?
    package var limitsPath: String?
    /// Test hook: a `job-*` fault the job process acts out (crash, hang, transient failure, full disk).
    package var fault: String?
    /// A core is spare (fewer jobs than cores), so an image job may give its encoder a second thread.
    package var encoderThreads: Bool?
    /// Which sandbox the job confines itself in (`reel worker --job-sandbox`); nil is `.auto`.
    package var sandbox: SandboxMode?

    package init(
        jobID: String, source: String, staging: String, memoryMegabytes: Int, cpuSeconds: Int,
        ladderPath: String? = nil, limitsPath: String? = nil, fault: String? = nil, encoderThreads: Bool? = nil
    ) {
        self.jobID = jobID
        self.source = source
        self.staging = staging
        self.memoryMegabytes = memoryMegabytes
        self.cpuSeconds = cpuSeconds
        self.ladderPath = ladderPath
        self.limitsPath = limitsPath
        self.fault = fault
        self.encoderThreads = encoderThreads
    }

    /// The hidden subcommand that runs one job.
    package static let subcommand = "worker-job"

    /// How the job process ends. The outcome file is the authority; the code says the same for a reader of `ps`.
    package enum ExitCode {
        package static let published: Int32 = 0
        package static let rejected: Int32 = 65
        package static let failed: Int32 = 70
        /// The outcome could not be written (EX_IOERR): usually the disk is full.
        package static let outcomeUnwritable: Int32 = 74
        package static let retryable: Int32 = 75
    }

    /// `media/` (a video's ladder) or `media.webp`, `progress`, `outcome.json` and the provisional `playable/` with
    /// `playable.json`, all inside `staging`.
    package var mediaDirectory: String { staging + "/media" }
    package var imageFile: String { staging + "/media.webp" }
    package var progressFile: String { staging + "/progress" }
    package var outcomeFile: String { staging + "/outcome.json" }
    /// The provisional rendition (`PlayableOutcome`), published while the ladder is still being made.
    package var playableDirectory: String { staging + "/playable" }
    package var playableFile: String { staging + "/playable.json" }
    package var stdoutFile: String { staging + "/stdout.log" }
    package var stderrFile: String { staging + "/stderr.log" }

    /// The job process's command line.
    package func commandLine(executable: String) -> [String] {
        let json = (try? JSONEncoder().encode(self)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
        return [executable, Self.subcommand, "--invocation", json]
    }

    /// The invocation of `reel worker-job --invocation JSON`, recognised before anything starts a thread (`ReelCLI`'s
    /// entry point): a job confines itself, and Landlock confines only the thread that asks and what it starts
    /// later. nil for any other command line.
    package static func parse(commandLine arguments: [String]) -> JobInvocation? {
        guard arguments.count == 4, arguments[1] == subcommand, arguments[2] == "--invocation" else { return nil }
        return try? JobInvocation(argument: arguments[3])
    }

    /// The invocation as one line of JSON, as the job server reads it.
    var requestLine: String {
        (try? JSONEncoder().encode(self)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
    }

    /// Parses the `--invocation` argument.
    package init(argument: String) throws {
        self = try JSONDecoder().decode(JobInvocation.self, from: Data(argument.utf8))
    }
}
