import Deadlines
import Testing

@testable import PostgresCatalog

/// The `LISTEN` wake-up's continuations: each waiter is resumed exactly once, by a wake-up or by its cancellation,
/// whichever comes first, including a cancellation that arrives before it registered.
@Suite(.timeLimit(.minutes(5))) struct QueuedJobSignalTests {
    @Test func aWakeUpResumesEveryRegisteredWaiter() async throws {
        let signal = QueuedJobSignal()
        let waiters = (0..<5).map { _ in Task { await signal.wait(upTo: 600) } }
        // Wake until all have registered and returned: a waiter that registers after a wake-up waits for the next.
        let woken = try await withDeadline(.seconds(120), "five waiters to be woken") {
            var results: [Bool] = []
            for waiter in waiters {
                while true {
                    signal.wakeAll()
                    if let value = await value(of: waiter, upTo: .milliseconds(100)) {
                        results.append(value)
                        break
                    }
                }
            }
            return results
        }
        #expect(woken == Array(repeating: true, count: 5))
    }

    @Test func aWaitWithNoWakeUpReturnsFalseAtItsTimeout() async {
        #expect(await QueuedJobSignal().wait(upTo: 0.05) == false)
    }

    @Test func cancellingAWaiterResumesItWithoutAWakeUp() async throws {
        let signal = QueuedJobSignal()
        let waiter = Task { await signal.wait() }
        waiter.cancel()
        try await withDeadline(.seconds(30), "the cancelled waiter to return") { await waiter.value }
        // A wake-up afterwards finds nobody to resume twice.
        signal.wakeAll()
    }

    @Test func aWaiterCancelledBeforeItRegistersStillReturns() async throws {
        let signal = QueuedJobSignal()
        let waiter = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            await signal.wait()
        }
        try await withDeadline(.seconds(30), "a waiter cancelled before it waited to return") { await waiter.value }
    }
}
