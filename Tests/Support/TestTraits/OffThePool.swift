import Dispatch
package import Testing

/// A trait for suites whose tests do seconds or minutes of synchronous CPU work in-process (encoding a clip, a
/// ladder, a photo): each test runs on a thread of its own instead of on the concurrency pool, whose two threads
/// (on a 2-core machine) every other test and in-process server in the test run needs for its wake-ups. Without
/// it, a few such tests at once held both pool threads for minutes, and tests that only wait ran past their limits.
package struct OffThePool: SuiteTrait, TestTrait, TestScoping {
    package var isRecursive: Bool { true }

    package func provideScope(
        for test: Test, testCase: Test.Case?,
        performing function: @Sendable () async throws -> Void
    ) async throws {
        // The suite itself needs no thread of its own; each test (and each case of a parameterised one) does.
        guard !test.isSuite else { return try await function() }
        try await withTaskExecutorPreference(OwnThreadExecutor(label: test.name)) { try await function() }
    }
}

extension Trait where Self == OffThePool {
    /// Runs each test of the suite on a thread of its own (`OffThePool`).
    package static var offThePool: Self { OffThePool() }
}

/// A task executor with one serial dispatch queue: its thread comes from dispatch's ordinary pool, not from the
/// concurrency runtime's cooperative one.
final class OwnThreadExecutor: TaskExecutor {
    private let queue: DispatchQueue

    init(label: String) { queue = DispatchQueue(label: "reel.tests.off-the-pool." + label) }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let executor = asUnownedTaskExecutor()
        queue.async { job.runSynchronously(on: executor) }
    }
}
