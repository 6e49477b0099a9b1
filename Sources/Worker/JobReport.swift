/// One finished job, as `reel worker --json` prints it (one line each) and the logs record it.
package struct JobReport: Codable, Sendable, Equatable {
    package var job: String
    package var file: String
    package var state: String
    package var kind: String
    package var reason: String?
    package var message: String?
    package var mediaID: String?
    package var attempts: Int
    package var seconds: Double
    /// CPU seconds of the job process (all its threads); nil when it left no outcome.
    package var cpuSeconds: Double?
    /// The job process's protections (`landlock+seccomp`, `namespaces+seccomp`, ... `none`); nil when it left no
    /// outcome (it crashed or was killed).
    package var sandbox: String?
    package var sandboxSetupMilliseconds: Double?

    enum CodingKeys: String, CodingKey {
        case job, file, state, kind, reason, message, attempts, seconds, sandbox
        case mediaID = "media_id"
        case cpuSeconds = "cpu_seconds"
        case sandboxSetupMilliseconds = "sandbox_setup_ms"
    }
}
