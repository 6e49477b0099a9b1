import FileSystem
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A child process for tests: FileSystem's Subprocess (posix_spawn, clean signal mask, its own process group,
/// reaped here rather than by Foundation's Process) with stdout and stderr captured to temporary files.
public final class ChildProcess: @unchecked Sendable {
    public let command: [String]
    private let process: Subprocess
    private let stdoutPath: String
    private let stderrPath: String

    public var pid: Int32 { process.pid }

    /// Starts `command` (an absolute path first). `environment` is added to this process's own.
    public init(_ command: [String], environment: [String: String] = [:]) throws {
        self.command = command
        let base = FileManager.default.temporaryDirectory.appendingPathComponent("child-\(UUID().uuidString)").path
        stdoutPath = base + ".out"
        stderrPath = base + ".err"
        guard let path = command.first, FileManager.default.isExecutableFile(atPath: path) else {
            throw FileSystemError("posix_spawn", command.first ?? "", code: ENOENT)
        }
        var merged = ProcessInfo.processInfo.environment
        merged.merge(environment) { $1 }
        process = try Subprocess(command, environment: merged, stdout: stdoutPath, stderr: stderrPath)
    }

    deinit {
        if process.poll() == nil { _ = process.kill() }
        try? FileManager.default.removeItem(atPath: stdoutPath)
        try? FileManager.default.removeItem(atPath: stderrPath)
    }

    /// Waits for the exit: the exit code, or 128 + the signal that ended it.
    @discardableResult
    public func wait() -> Int32 { Self.code(process.wait()) }

    /// Whether it has exited, without waiting.
    public var hasExited: Bool { process.poll() != nil }

    public func signal(_ signal: Int32) { process.send(signal) }

    public var stdout: String { (try? String(contentsOfFile: stdoutPath, encoding: .utf8)) ?? "" }
    public var stderr: String { (try? String(contentsOfFile: stderrPath, encoding: .utf8)) ?? "" }

    static func code(_ termination: Subprocess.Termination) -> Int32 {
        switch termination {
        case let .exited(code): code
        case let .signalled(signal): 128 + signal
        }
    }

    /// Runs `command` to the end.
    public static func run(_ command: [String], environment: [String: String] = [:]) throws -> (status: Int32, stdout: String, stderr: String) {
        let child = try ChildProcess(command, environment: environment)
        let status = child.wait()
        return (status, child.stdout, child.stderr)
    }

    /// Polls `condition` every 50 ms until it holds or `seconds` pass.
    /// `waitUntil` for async tests: between looks it suspends instead of blocking, so a long wait does not hold one of
    /// the concurrency pool's few threads that servers in the test process (and other tests) need.
    /// The condition may itself suspend (a catalog read through GRDB's async access).
    public static func suspendUntil(seconds: Double, _ condition: () async throws -> Bool) async rethrows -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if try await condition() { return true }
            try? await Task.sleep(for: .milliseconds(100))
        }
        return try await condition()
    }

    public static func waitUntil(seconds: Double, _ condition: () throws -> Bool) rethrows -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if try condition() { return true }
            usleep(50_000)
        }
        return try condition()
    }
}
