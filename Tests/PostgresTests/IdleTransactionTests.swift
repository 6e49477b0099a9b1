import Deadlines
import Foundation
import Logging
import PostgresCatalog
import PostgresNIO
import TestServers
import Testing

/// A Reel session whose client goes silent inside a transaction (a host cut off from the network mid-publish) does
/// not hold its row locks for ever: the server ends it after `idle_in_transaction_session_timeout`, and another
/// worker's update of the same job goes through. Without the setting the update waits for as long as TCP takes to
/// notice the dead client (hours), as the multi-host test saw on 2026-11-27.
@Suite(.timeLimit(.minutes(5))) struct IdleTransactionTests {
    static let logger = Logger(label: "reel.test.idle-transaction")

    @Test func aTransactionLeftIdleIsEndedAndItsRowLockFreed() async throws {
        let server = try await PostgresTestServer()
        try await server.createDatabase("idle")
        let location = PostgresCatalogEngineTests.location(server, database: "idle")
        try await PostgresTestServerTests.withClient(server, database: "idle") { other in
            try await other.query("CREATE TABLE jobs (id text PRIMARY KEY, epoch bigint NOT NULL)", logger: Self.logger)
            try await other.query("INSERT INTO jobs VALUES ('j', 1)", logger: Self.logger)
            // Reel's own session settings, on a connection that takes the row lock and then goes silent.
            let silent = PostgresClient(configuration: PostgresEndpoint.configuration(location, connections: 1))
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask { await silent.run() }
                defer { group.cancelAll() }
                let locked = OneShot<Void>()
                group.addTask {
                    try? await silent.withConnection { connection in
                        try await connection.query("BEGIN", logger: Self.logger)
                        try await connection.query("UPDATE jobs SET epoch = 2 WHERE id = 'j'", logger: Self.logger)
                        _ = locked.settle(.success(()))
                        // Says nothing more, as a client whose network is gone; the server ends the session.
                        try await Task.sleep(for: .seconds(120))
                    }
                }
                _ = try await withDeadline(.seconds(60), "the silent session takes the row lock") {
                    try await locked.value()
                }
                // Bounded below the silent session's own 120 s: only the server's 30 s limit can free the lock in time.
                let taken = try await withDeadline(.seconds(90), "another session's update of the locked row") {
                    try await other.query(
                        "UPDATE jobs SET epoch = 3 WHERE id = 'j' RETURNING epoch", logger: Self.logger
                    )
                    .decode(Int64.self).reduce(into: [Int64]()) { $0.append($1) }
                }
                #expect(taken == [3], "the silent transaction's update was rolled back, not committed")
            }
        }
    }
}
