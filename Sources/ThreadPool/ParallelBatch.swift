internal import Dispatch
internal import Synchronization

/// One `ParallelLoop.perform`: its indices, handed out one at a time to whichever thread asks next, and the signal
/// that the last call has returned.
final class ParallelBatch: Sendable {
    private let iterations: Int
    nonisolated(unsafe) private let body: (Int) -> Void
    private let next = Atomic<Int>(0)
    private let finished = Atomic<Int>(0)
    /// A futex-backed semaphore: it parks a thread, and starts none (it is not libdispatch's pool). Only
    /// `ParallelLoop.perform`, which is `noasync`, waits on it: never a thread of Swift's cooperative pool.
    private let done = DispatchSemaphore(value: 0)

    init(iterations: Int, body: @escaping (Int) -> Void) {
        self.iterations = iterations
        self.body = body
    }

    /// Every index has been handed out (some calls may still be running).
    var isExhausted: Bool { next.load(ordering: .relaxed) >= iterations }

    /// Takes indices and calls the body until none is left.
    func work() {
        while true {
            let index = next.wrappingAdd(1, ordering: .relaxed).oldValue
            guard index < iterations else { return }
            body(index)
            if finished.wrappingAdd(1, ordering: .acquiringAndReleasing).newValue == iterations { done.signal() }
        }
    }

    /// Returns once the last call has returned. It waits only for calls already running on other threads, which
    /// end when their work does: there is nothing to time out.
    func waitUntilFinished() { done.wait() }
}
