/// Waits between retries and polls. Production sleeps with `Task.sleep`; tests record the delays they were asked for.
package protocol Sleeper: Sendable {
    /// Waits `seconds`.
    /// - Throws: `CancellationError` when the task is cancelled while waiting.
    func sleep(seconds: Double) async throws
}

/// `Task.sleep`, so a cancelled upload stops waiting at once.
package struct TaskSleeper: Sleeper {
    package init() {}

    package func sleep(seconds: Double) async throws {
        guard seconds > 0 else { return try Task.checkCancellation() }
        try await Task.sleep(nanoseconds: UInt64(seconds * 1_000_000_000))
    }
}
