internal import Deadlines
package import Logging
package import PostgresNIO
internal import Synchronization

/// Every catalog call reaches the server through `boundedLease`, and its caller never awaits PostgresNIO directly.
/// The lease and the body run in a task of their own; the caller takes the first of three outcomes: the body's
/// result, no connection within `connectionWait`, or the connection closed under the body and the body still not done
/// `lostConnectionGrace` later. PostgresNIO 1.33 drops a statement written to a connection whose channel has closed
/// (a `ROLLBACK` after the server went away, a query in the gap before the pool hears of the close): its promise is
/// never completed and its caller waits for ever, even when cancelled. Such a body is cancelled and left behind, and
/// the caller gets `ConnectionLost` (docs/quirks.md, "A statement after the close is never answered").
extension PostgresClient {
    /// How the bounded call ended, and whether a connection was ever handed over (a failure before that means the
    /// server was not reachable, whatever the error says).
    struct BoundedOutcome<T: Sendable>: Sendable {
        let result: Result<T, any Error>
        let leased: Bool
    }

    /// The pool had no connection for us in time: the server is down or unreachable, or every connection is busy.
    struct ConnectionTimeout: Error, CustomStringConvertible {
        let timeout: Duration
        var description: String {
            "no connection to the server within \(timeout) (server down or unreachable, or the pool exhausted)"
        }
    }

    /// The connection closed while the body ran, and the body did not fail by itself.
    struct ConnectionLost: Error, CustomStringConvertible {
        let grace: Duration
        var description: String {
            "the connection closed under the call and it had not failed \(grace) later (a statement written after the close is never answered)"
        }
    }

    /// How long a body may still run after its connection closed: it normally fails at once with the close's error.
    static let lostConnectionGrace: Duration = .seconds(2)
    /// How often a running body's connection is looked at.
    static let closeCheckInterval: Duration = .milliseconds(500)

    /// The connection the pool handed over, once it has.
    private final class Lease: Sendable {
        private let connection = Mutex<PostgresConnection?>(nil)
        func set(_ leased: PostgresConnection) { connection.withLock { $0 = leased } }
        var leased: PostgresConnection? { connection.withLock { $0 } }
    }

    /// Runs `body` on a pooled connection; returns within `connectionWait` when no connection comes, and within
    /// `lostConnectionGrace` (plus a look's interval) of the connection closing under a body that never ends.
    /// Cancelling the caller returns at once with `CancellationError` and cancels the body.
    func boundedLease<T: Sendable>(
        _ operation: String, connectionWait: Duration, logger: Logger,
        _ body: @escaping @Sendable (PostgresConnection) async throws -> T
    ) async -> BoundedOutcome<T> {
        let lease = Lease()
        let outcome = OneShot<T>()
        let work = Task {
            do {
                outcome.settle(
                    .success(
                        try await self.withConnection { connection in
                            lease.set(connection)
                            return try await body(connection)
                        }))
            } catch {
                outcome.settle(.failure(error))
            }
        }
        let watch = Task {
            let deadline = ContinuousClock.now + connectionWait
            while !Task.isCancelled {
                if let connection = lease.leased {
                    guard connection.isClosed else {
                        try? await Task.sleep(for: Self.closeCheckInterval)
                        continue
                    }
                    try? await Task.sleep(for: Self.lostConnectionGrace)
                    guard !Task.isCancelled, outcome.settle(.failure(ConnectionLost(grace: Self.lostConnectionGrace)))
                    else { return }
                    work.cancel()
                    logger.warning(
                        "left a catalog call behind: its connection closed and it never ended",
                        metadata: ["operation": "\(operation)"])
                    return
                }
                guard ContinuousClock.now < deadline else {
                    if outcome.settle(.failure(ConnectionTimeout(timeout: connectionWait))) { work.cancel() }
                    return
                }
                try? await Task.sleep(for: min(Self.closeCheckInterval, deadline - ContinuousClock.now))
            }
        }
        defer { watch.cancel() }
        do {
            return BoundedOutcome(
                result: .success(try await outcome.value { work.cancel() }), leased: lease.leased != nil)
        } catch {
            return BoundedOutcome(result: .failure(error), leased: lease.leased != nil)
        }
    }

    /// `boundedLease` in one transaction, for callers outside the store (migrations, `reel db copy`).
    /// - Throws: the body's error, `PostgresTransactionError`, `ConnectionTimeout` or `ConnectionLost`.
    package func boundedTransaction<T: Sendable>(
        _ operation: String, connectionWait: Duration, logger: Logger,
        _ body: @escaping @Sendable (PostgresConnection) async throws -> T
    ) async throws -> T {
        try await boundedLease(operation, connectionWait: connectionWait, logger: logger) { connection in
            try await connection.withTransaction(logger: logger) { connection in try await body(connection) }
        }.result.get()
    }
}
