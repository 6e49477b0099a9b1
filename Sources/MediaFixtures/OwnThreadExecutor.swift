import Dispatch

/// Runs `body` on a thread of its own (a serial dispatch queue) instead of the concurrency pool: for the steps of a
/// test that must keep pace with a child process — see a state that lasts seconds (a job processing, an upload under
/// way), then signal the child before it moves on. The test process's blocking tests can hold both threads of the
/// pool for minutes, so a step that suspends there (a catalog read through GRDB's async access, `Task.sleep`) may
/// resume long after that state has passed; under this executor every step resumes at once. Blocking in `body` holds
/// only its own thread.
public func offThePool<T, Failure: Error>(_ body: () async throws(Failure) -> T) async throws(Failure) -> T {
    try await withTaskExecutorPreference(OwnThreadExecutor()) { () async throws(Failure) -> T in try await body() }
}

/// A task executor with one serial dispatch queue, whose thread is not one of the concurrency pool's.
final class OwnThreadExecutor: TaskExecutor {
    private let queue = DispatchQueue(label: "reel.tests.off-the-pool")

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let executor = asUnownedTaskExecutor()
        queue.async { job.runSynchronously(on: executor) }
    }
}
