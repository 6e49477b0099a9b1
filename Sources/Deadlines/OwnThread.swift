internal import Foundation

/// Runs blocking work (a synchronous library waiting on the network, `ip` commands, a child process waited for) on a
/// thread of its own and suspends until it ends, so the concurrency pool's threads (two on a 2-core machine) stay
/// free. The continuation is resumed exactly once: the thread always runs `body` to its end.
package func onOwnThread<T: Sendable>(_ what: String, _ body: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<T, any Error>) in
        let thread = Thread {
            continuation.resume(with: Result { try body() })
        }
        thread.name = what
        thread.start()
    }
}
