internal import Synchronization

/// Wakes every task waiting for a claimable job when the `LISTEN` connection hears `reel_jobs`. A waiter that
/// registers after a wake-up waits for the next one: the caller's timeout bounds what it can miss.
final class QueuedJobSignal: Sendable {
    private struct Waiters {
        var next = 0
        var continuations: [Int: CheckedContinuation<Void, Never>] = [:]
    }

    private let waiters = Mutex(Waiters())

    /// Resumes every waiter registered so far.
    func wakeAll() {
        let woken = waiters.withLock { waiters in
            defer { waiters.continuations.removeAll() }
            return Array(waiters.continuations.values)
        }
        for continuation in woken { continuation.resume() }
    }

    /// Returns at the next `wakeAll`, or at once when the task is cancelled.
    func wait() async {
        let id = waiters.withLock { waiters in
            defer { waiters.next += 1 }
            return waiters.next
        }
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let cancelled = waiters.withLock { waiters in
                    if Task.isCancelled { return true }
                    waiters.continuations[id] = continuation
                    return false
                }
                if cancelled { continuation.resume() }
            }
        } onCancel: {
            waiters.withLock { $0.continuations.removeValue(forKey: id) }?.resume()
        }
    }

    /// Returns at the next `wakeAll` (true), or after `seconds` (false), whichever comes first; never throws.
    func wait(upTo seconds: Double) async -> Bool {
        await withTaskGroup(of: Bool.self) { group in
            group.addTask {
                await self.wait()
                return !Task.isCancelled
            }
            group.addTask {
                try? await Task.sleep(for: .milliseconds(Int64(max(0, seconds) * 1000)))
                return false
            }
            let first = await group.next() ?? false
            group.cancelAll()
            return first
        }
    }
}
