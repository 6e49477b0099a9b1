internal import Deadlines
import FileSystem
import Foundation

#if canImport(Glibc)
package import Glibc
#endif

/// A child process for tests: FileSystem's Subprocess (posix_spawn, clean signal mask, its own process group,
/// reaped here rather than by Foundation's Process) with stdout and stderr captured to temporary files.
///
/// Async code never blocks on it: `exit(within:)`, `stop(within:)`, `run(_:within:)` and `suspendUntil` suspend between
/// looks, and each wait has a bound and names what it waited for. The blocking forms are for synchronous callers and
/// the compiler refuses them in async code.
package final class ChildProcess: Sendable {
    package let command: [String]
    private let process: Subprocess
    private let stdoutPath: String
    private let stderrPath: String

    package var pid: Int32 { process.pid }

    /// Starts `command` (an absolute path first). `environment` is added to this process's own.
    package init(_ command: [String], environment: [String: String] = [:]) throws {
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

    /// A process still running is killed with its group (SIGKILL) and reaped, which takes no time worth a thread.
    deinit {
        if process.poll() == nil { _ = process.kill() }
        try? FileManager.default.removeItem(atPath: stdoutPath)
        try? FileManager.default.removeItem(atPath: stderrPath)
    }

    /// Waits for the exit, blocking the thread: the exit code, or 128 + the signal that ended it.
    @available(*, noasync, message: "blocks a thread of the concurrency pool: await exit(within:) instead")
    @discardableResult
    package func wait() -> Int32 { Self.code(process.wait()) }

    /// The exit code (or 128 + the signal that ended it), once the process has exited.
    /// - Throws: `DeadlineExceeded` naming the command when it is still running after `limit` (it is left running).
    @discardableResult
    package func exit(within limit: Duration = .seconds(120)) async throws -> Int32 {
        let process = self.process
        let seconds = Double(limit.components.seconds) + Double(limit.components.attoseconds) / 1e18
        let termination = try await TestWaits.during("\(description) to exit", seconds: seconds) {
            try await withDeadline(limit, "\(description) to exit") {
                guard let termination = await process.exit() else { throw CancellationError() }
                return termination
            }
        }
        return Self.code(termination)
    }

    /// Sends `signal` and waits up to `limit` for the exit; a process still running then is killed with its group.
    /// - Returns: the exit code, or 128 + the signal that ended it.
    @discardableResult
    package func stop(_ signal: Int32 = SIGTERM, within limit: Duration = .seconds(30)) async -> Int32 {
        if let termination = process.poll() { return Self.code(termination) }
        process.send(signal)
        if let code = try? await exit(within: limit) { return code }
        return Self.code(process.kill())
    }

    /// Whether it has exited, without waiting.
    package var hasExited: Bool { process.poll() != nil }

    package func signal(_ signal: Int32) { process.send(signal) }

    package var stdout: String { (try? String(contentsOfFile: stdoutPath, encoding: .utf8)) ?? "" }
    package var stderr: String { (try? String(contentsOfFile: stderrPath, encoding: .utf8)) ?? "" }

    /// The command line, shortened, for messages.
    package var description: String {
        let line = command.map { $0.contains(" ") ? "'\($0)'" : $0 }.joined(separator: " ")
        return line.count > 160 ? String(line.prefix(157)) + "..." : line
    }

    static func code(_ termination: Subprocess.Termination) -> Int32 {
        switch termination {
        case let .exited(code): code
        case let .signalled(signal): 128 + signal
        }
    }

    /// Runs `command` to the end, blocking the thread.
    @available(*, noasync, message: "blocks a thread of the concurrency pool: await run(_:environment:within:) instead")
    package static func run(
        _ command: [String], environment: [String: String] = [:]
    ) throws -> (status: Int32, stdout: String, stderr: String) {
        let child = try ChildProcess(command, environment: environment)
        let status = child.wait()
        return (status, child.stdout, child.stderr)
    }

    /// Runs `command` to the end. - Throws: `DeadlineExceeded` when it has not exited after `limit` (it is then killed).
    package static func run(
        _ command: [String], environment: [String: String] = [:],
        within limit: Duration = .seconds(120)
    ) async throws -> (status: Int32, stdout: String, stderr: String) {
        let child = try ChildProcess(command, environment: environment)
        let status = try await child.exit(within: limit)
        return (status, child.stdout, child.stderr)
    }

    /// Looks at `condition` every 100 ms until it holds or `seconds` pass, suspending in between, so a long wait does
    /// not hold one of the concurrency pool's few threads that servers in the test process (and other tests) need.
    /// The condition may itself suspend (a catalog read through GRDB's async access, a request).
    /// The wait is announced to the test watchdog (`TestWaits`) as the caller's file and line.
    package static func suspendUntil(
        seconds: Double, file: String = #fileID, line: Int = #line, _ condition: () async throws -> Bool
    ) async rethrows -> Bool {
        try await TestWaits.during("a condition at \(file):\(line)", seconds: seconds) {
            let deadline = ContinuousClock.now + .milliseconds(Int64(seconds * 1000))
            while ContinuousClock.now < deadline {
                if try await condition() { return true }
                // A cancelled task looks once more and ends: without this, a failed sleep made the loop spin at full
                // speed.
                do { try await Task.sleep(for: .milliseconds(100)) } catch { break }
            }
            return try await condition()
        }
    }

    /// Polls `condition` every 50 ms until it holds or `seconds` pass, blocking the thread.
    @available(*, noasync, message: "blocks a thread of the concurrency pool: await suspendUntil(seconds:_:) instead")
    package static func waitUntil(seconds: Double, _ condition: () throws -> Bool) rethrows -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if try condition() { return true }
            usleep(50_000)
        }
        return try condition()
    }
}
