import FileSystem
import Foundation
import Synchronization

/// Tells `scripts/test-watchdog.py` that a test is inside a bounded wait, so a long wait is not taken for a hang.
/// The watchdog acts after 5 minutes without output, but a test may rightly wait longer than that on a loaded
/// machine (a multi-host takeover waits up to 300 s for PostgreSQL to drop a cut host's connection): while a wait
/// it was told of is within its bound, the watchdog holds off, and when it acts it names the waits still open.
/// Outside the watchdog (`REEL_TEST_WAITS` unset) this does nothing.
package enum TestWaits {
    static let path = ProcessInfo.processInfo.environment["REEL_TEST_WAITS"]
    static let counter = Atomic<Int>(0)

    /// Runs `body`, announced as a wait for `what` of at most `seconds`.
    package static func during<T>(
        _ what: String, seconds: Double, _ body: () async throws -> T
    ) async rethrows -> T {
        try await during(what, seconds: seconds, log: path, body)
    }

    /// The same, announced in `log` (nil: nowhere).
    package static func during<T>(
        _ what: String, seconds: Double, log path: String?, _ body: () async throws -> T
    ) async rethrows -> T {
        guard let path else { return try await body() }
        let id = "\(getpid())-\(counter.add(1, ordering: .relaxed).newValue)"
        let deadline = Date().timeIntervalSince1970 + seconds
        let text = what.replacingOccurrences(of: "\t", with: " ").replacingOccurrences(of: "\n", with: " ")
        try? AppendOnlyLog.append("\(id)\t\(String(format: "%.3f", deadline))\t\(text.prefix(300))", to: path)
        defer { try? AppendOnlyLog.append("\(id)\tdone", to: path) }
        return try await body()
    }
}
