import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A child process for tests: posix_spawn with stdout and stderr captured to files, a clean signal mask and
/// default handlers (a child of the test runner may inherit blocked signals, and then a script's `kill` never
/// lands), and the exit status reaped here rather than by Foundation's Process, which reaps on its own thread.
public final class ChildProcess: @unchecked Sendable {
    public let pid: Int32
    public let command: [String]
    private let stdoutPath: String
    private let stderrPath: String
    private var exitStatus: Int32?

    public struct SpawnError: Error, CustomStringConvertible {
        public let path: String
        public let code: Int32
        public var description: String { "could not run \(path): \(String(cString: strerror(code)))" }
    }

    /// Starts `command` (an absolute path first). `environment` is added to this process's own.
    public init(_ command: [String], environment: [String: String] = [:]) throws {
        self.command = command
        let base = FileManager.default.temporaryDirectory.appendingPathComponent("child-\(UUID().uuidString)").path
        stdoutPath = base + ".out"
        stderrPath = base + ".err"
        guard let path = command.first, FileManager.default.isExecutableFile(atPath: path) else {
            throw SpawnError(path: command.first ?? "", code: ENOENT)
        }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, stdoutPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_addopen(&actions, 2, stderrPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var empty = sigset_t(), all = sigset_t()
        sigemptyset(&empty)
        sigfillset(&all)
        posix_spawnattr_setsigmask(&attributes, &empty)
        posix_spawnattr_setsigdefault(&attributes, &all)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        var merged = ProcessInfo.processInfo.environment
        merged.merge(environment) { $1 }
        let argv = command.map { strdup($0) } + [nil]
        let envp = merged.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            argv.forEach { free($0) }
            envp.forEach { free($0) }
        }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, path, &actions, &attributes, argv, envp)
        guard spawned == 0 else { throw SpawnError(path: path, code: spawned) }
        self.pid = pid
    }

    deinit {
        if exitStatus == nil {
            kill(pid, SIGKILL)
            _ = wait()
        }
        try? FileManager.default.removeItem(atPath: stdoutPath)
        try? FileManager.default.removeItem(atPath: stderrPath)
    }

    /// Waits for the exit: the exit code, or 128 + the signal that ended it.
    @discardableResult
    public func wait() -> Int32 {
        if let exitStatus { return exitStatus }
        var status: Int32 = 0
        var reaped: pid_t
        repeat { reaped = waitpid(pid, &status, 0) } while reaped == -1 && errno == EINTR
        let code: Int32 = (status & 0x7F) == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
        exitStatus = code
        return code
    }

    /// Whether it has exited, without waiting.
    public var hasExited: Bool {
        if exitStatus != nil { return true }
        var status: Int32 = 0
        guard waitpid(pid, &status, WNOHANG) == pid else { return false }
        exitStatus = (status & 0x7F) == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
        return true
    }

    public func signal(_ signal: Int32) { _ = kill(pid, signal) }

    public var stdout: String { (try? String(contentsOfFile: stdoutPath, encoding: .utf8)) ?? "" }
    public var stderr: String { (try? String(contentsOfFile: stderrPath, encoding: .utf8)) ?? "" }

    /// Runs `command` to the end.
    public static func run(_ command: [String], environment: [String: String] = [:]) throws -> (status: Int32, stdout: String, stderr: String) {
        let child = try ChildProcess(command, environment: environment)
        let status = child.wait()
        return (status, child.stdout, child.stderr)
    }

    /// Polls `condition` every 50 ms until it holds or `seconds` pass.
    public static func waitUntil(seconds: Double, _ condition: () throws -> Bool) rethrows -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if try condition() { return true }
            usleep(50_000)
        }
        return try condition()
    }
}
