internal import Foundation
package import Sandbox

/// The whole contract between the worker and its job process (`reel worker-job --invocation JSON`): what to run,
/// under which limits, where the outcome goes and what the exit codes mean. `ReelCLI` only forwards it.
public struct JobInvocation: Codable, Sendable, Equatable {
    public var jobID: String
    /// The claimed upload (`.incoming/<id>`): a server-generated name, never the uploader's.
    public var source: String
    /// The job's private directory; everything the job writes goes here.
    public var staging: String
    public var memoryMegabytes: Int
    public var cpuSeconds: Int
    /// Preset files, already validated by the worker at start.
    public var ladderPath: String?
    public var limitsPath: String?
    /// Test hook: a `job-*` fault the job process acts out (crash, hang, transient failure, full disk).
    public var fault: String?
    /// A core is spare (fewer jobs than cores), so an image job may give its encoder a second thread.
    public var encoderThreads: Bool?
    /// Which sandbox the job confines itself in (`reel worker --job-sandbox`); nil is `.auto`.
    package var sandbox: SandboxMode?

    public init(
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
    public static let subcommand = "worker-job"

    /// How the job process ends. The outcome file is the authority; the code says the same for a reader of `ps`.
    public enum ExitCode {
        public static let published: Int32 = 0
        public static let rejected: Int32 = 65
        public static let failed: Int32 = 70
        /// The outcome could not be written (EX_IOERR): usually the disk is full.
        public static let outcomeUnwritable: Int32 = 74
        public static let retryable: Int32 = 75
    }

    /// `media/` (a video's ladder) or `media.webp`, `progress` and `outcome.json`, all inside `staging`.
    public var mediaDirectory: String { staging + "/media" }
    public var imageFile: String { staging + "/media.webp" }
    public var progressFile: String { staging + "/progress" }
    public var outcomeFile: String { staging + "/outcome.json" }
    public var stdoutFile: String { staging + "/stdout.log" }
    public var stderrFile: String { staging + "/stderr.log" }

    /// The job process's command line.
    public func commandLine(executable: String) -> [String] {
        let json = (try? JSONEncoder().encode(self)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
        return [executable, Self.subcommand, "--invocation", json]
    }

    /// The invocation of `reel worker-job --invocation JSON`, recognised before anything starts a thread (`ReelCLI`'s
    /// entry point): a job confines itself, and Landlock confines only the thread that asks and what it starts
    /// later. nil for any other command line.
    public static func parse(commandLine arguments: [String]) -> JobInvocation? {
        guard arguments.count == 4, arguments[1] == subcommand, arguments[2] == "--invocation" else { return nil }
        return try? JobInvocation(argument: arguments[3])
    }

    /// The invocation as one line of JSON, as the job server reads it.
    var requestLine: String {
        (try? JSONEncoder().encode(self)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
    }

    /// Parses the `--invocation` argument.
    public init(argument: String) throws {
        self = try JSONDecoder().decode(JobInvocation.self, from: Data(argument.utf8))
    }
}
