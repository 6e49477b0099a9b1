/// One finished job, as `reel worker --json` prints it (one line each) and the logs record it.
public struct JobReport: Codable, Sendable, Equatable {
    public var job: String
    public var file: String
    public var state: String
    public var kind: String
    public var reason: String?
    public var message: String?
    public var mediaID: String?
    public var attempts: Int
    public var seconds: Double
    /// CPU seconds of the job process (all its threads); nil when it left no outcome.
    public var cpuSeconds: Double?
    /// The job process's protections (`landlock+seccomp`, `namespaces+seccomp`, ... `none`); nil when it left no
    /// outcome (it crashed or was killed).
    public var sandbox: String?
    public var sandboxSetupMilliseconds: Double?

    enum CodingKeys: String, CodingKey {
        case job, file, state, kind, reason, message, attempts, seconds, sandbox
        case mediaID = "media_id"
        case cpuSeconds = "cpu_seconds"
        case sandboxSetupMilliseconds = "sandbox_setup_ms"
    }
}
