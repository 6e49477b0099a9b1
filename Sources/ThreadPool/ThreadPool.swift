internal import Dispatch
internal import Foundation
internal import Synchronization

/// The threads `ParallelLoop` runs on: started on demand (up to `limit`), parked on a semaphore of their own while
/// idle, and kept for the life of the process, as libdispatch keeps its workers.
final class ThreadPool: Sendable {
    static let shared = ThreadPool(limit: 64)

    private let limit: Int
    private let state = Mutex(State())

    private struct State {
        /// Batches that may still have indices to hand out; exhausted ones are dropped as threads look.
        var batches: [ParallelBatch] = []
        /// The wake-up semaphores of parked threads: each waited on only by its own pool thread (`serve`), never by
        /// a thread of Swift's cooperative pool.
        var idle: [DispatchSemaphore] = []
        var threads = 0
    }

    init(limit: Int) { self.limit = limit }

    /// Makes `batch` available and wakes (or starts) up to `helpers` threads for it. Beyond `limit` threads the
    /// caller does the rest itself.
    func offer(_ batch: ParallelBatch, helpers: Int) {
        let (woken, started) = state.withLock { state -> ([DispatchSemaphore], Int) in
            state.batches.append(batch)
            let woken = Array(state.idle.suffix(helpers))
            state.idle.removeLast(woken.count)
            let started = max(0, min(helpers - woken.count, limit - state.threads))
            state.threads += started
            return (woken, started)
        }
        woken.forEach { $0.signal() }
        for _ in 0..<started {
            let thread = Thread { [self] in serve() }
            thread.name = "reel.parallel"
            thread.start()
        }
    }

    /// A pool thread's life: work on whatever batch has indices left, park when none has.
    private func serve() {
        let wake = DispatchSemaphore(value: 0)
        while true {
            let batch = state.withLock { state -> ParallelBatch? in
                state.batches.removeAll { $0.isExhausted }
                if let batch = state.batches.first { return batch }
                state.idle.append(wake)
                return nil
            }
            if let batch { batch.work() } else { wake.wait() }
        }
    }
}
