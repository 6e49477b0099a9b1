import Synchronization

/// Continuations that nothing resumes until the test says so: a body that ignores cancellation, as a statement
/// PostgresNIO dropped does. The test releases them at its end, so nothing leaks.
final class Parked: Sendable {
    private let waiting = Mutex<[CheckedContinuation<Void, Never>]>([])

    /// Suspends until `release`, whatever happens to the task meanwhile.
    func park() async {
        await withCheckedContinuation { continuation in waiting.withLock { $0.append(continuation) } }
    }

    var count: Int { waiting.withLock { $0.count } }

    func release() {
        for continuation in waiting.withLock({ list in
            defer { list.removeAll() }
            return list
        }) { continuation.resume() }
    }
}
