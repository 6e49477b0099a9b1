/// A wait that gave up: what it waited for and how long.
package struct DeadlineExceeded: Error, CustomStringConvertible, Sendable {
    package let what: String
    package let limit: Duration

    package init(what: String, limit: Duration) {
        self.what = what
        self.limit = limit
    }

    package var description: String { "gave up waiting for \(what) after \(limit)" }
}

/// Runs `body` and returns its result, or throws `DeadlineExceeded` naming `what` once `limit` has passed. The body
/// runs in a task of its own that is cancelled at the deadline but never awaited: a body that ignores cancellation
/// (a continuation nobody resumes) is left behind, and the caller still returns on time. Cancelling the caller
/// cancels the body and throws `CancellationError` at once.
/// - Throws: the body's error, `DeadlineExceeded`, or `CancellationError`.
package func withDeadline<T: Sendable>(
    _ limit: Duration, _ what: String,
    _ body: @escaping @Sendable () async throws -> T
) async throws -> T {
    let outcome = OneShot<T>()
    let work = Task {
        do { outcome.settle(.success(try await body())) } catch { outcome.settle(.failure(error)) }
    }
    let timer = Task {
        try? await Task.sleep(for: limit)
        if !Task.isCancelled, outcome.settle(.failure(DeadlineExceeded(what: what, limit: limit))) { work.cancel() }
    }
    defer { timer.cancel() }
    return try await outcome.value { work.cancel() }
}

/// Waits up to `limit` for `task` to end and returns its value, or nil once `limit` has passed (the task is left
/// running). Unlike `withDeadline`, the caller's own cancellation does not cut the wait short: a service shutting down
/// is cancelled, and still gives its parts their grace period to close.
package func value<T: Sendable>(of task: Task<T, Never>, upTo limit: Duration) async -> T? {
    let outcome = OneShot<T?>()
    let waiter = Task { outcome.settle(.success(await task.value)) }
    let timer = Task {
        try? await Task.sleep(for: limit)
        outcome.settle(.success(nil))
    }
    // An unstructured task does not inherit the caller's cancellation; the timer bounds it.
    let value = await Task { (try? await outcome.value()) ?? nil }.value
    timer.cancel()
    withExtendedLifetime(waiter) {}
    return value
}
