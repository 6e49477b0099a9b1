import Catalog
import Deadlines
import Foundation
import Logging
import PostgresNIO
import TestServers
import Testing

@testable import PostgresCatalog

/// Issue 29's hang: `make test` stopped for good with every thread idle, a catalog call awaiting a continuation nobody
/// would resume. PostgresNIO 1.33 drops a statement written to a connection whose channel has closed (the `ROLLBACK`
/// after a transaction's connection died, a query in the gap before the pool hears of the close) and never completes
/// its promise, even when the caller is cancelled; the store waited for the body once a connection was leased.
/// Each wait here runs under `withDeadline`, which never awaits a stuck body: on the old store these tests fail with
/// the step's name instead of hanging the run.
@Suite(.timeLimit(.minutes(5))) struct PostgresOutageTests {
    static let logger = Logger(label: "reel.test.postgres-outage")

    /// The mechanism itself, deterministic: a statement on a connection that has already closed.
    @Test func aStatementAfterItsConnectionClosedFailsTheCallInsteadOfHangingIt() async throws {
        let server = try await PostgresTestServer()
        try await PostgresCatalogEngineTests.withStore(server, database: "closed", connectionWait: .seconds(5)) {
            store in
            let error = try await withDeadline(.seconds(60), "a call whose statement went to a closed connection") {
                await #expect(throws: CatalogError.self) {
                    try await store.withConnection("query a closed connection") { connection in
                        try await connection.close()
                        return try await connection.rows("SELECT 1", logger: Self.logger).count
                    }
                }
            }
            #expect(error?.kind == .unavailable, "\(String(describing: error))")
            #expect(error?.message.contains("query a closed connection") == true)
            // The pool is still usable afterwards.
            #expect(
                try await withDeadline(.seconds(60), "a call after the lost one") { try await store.generation() } > 0)
        }
    }

    /// The realistic form, three times over: transactions mid-statement, plain calls and a `LISTEN` waiter in flight
    /// when the server dies (SIGQUIT, as a crash looks to clients). Every call ends, as a success or as unavailable;
    /// the server comes back; the store serves again and the waiter is woken by a notification after the restart.
    @Test func callsInFlightWhenTheServerDiesAllEndAndTheStoreRecovers() async throws {
        let server = try await PostgresTestServer()
        try await PostgresCatalogEngineTests.withStore(server, database: "crash", connectionWait: .seconds(5)) {
            store in
            for round in 1...3 {
                let waiter = Task { await store.waitForQueuedJob(upTo: 600) }
                let transactions = (0..<4).map { n in
                    Task {
                        try await store.transaction("slow transaction \(n) of round \(round)") { connection in
                            try await connection.count("SELECT pg_sleep(3)", logger: Self.logger)
                        }
                    }
                }
                let calls = (0..<4).map { n in
                    Task {
                        for k in 0..<50 {
                            try await store.publish(
                                PostgresCatalogEngineTests.video(
                                    "r\(round)-\(n)-\(k)", at: Int64(round * 100_000 + n * 100 + k)))
                            _ = try await store.generation()
                        }
                    }
                }
                try await Task.sleep(for: .milliseconds(500))
                await server.stop()

                for (index, call) in (transactions.map { task in Task { try await task.value } } + calls).enumerated() {
                    let result = try await withDeadline(
                        .seconds(60), "call \(index) in flight when the server died (round \(round))"
                    ) {
                        await call.result
                    }
                    if case let .failure(error) = result {
                        #expect(
                            (error as? CatalogError)?.kind == .unavailable, "round \(round), call \(index): \(error)")
                    }
                }

                try await server.start()
                let back = try await withDeadline(
                    .seconds(120), "the store to reach the restarted server (round \(round))"
                ) {
                    while true {
                        if let generation = try? await store.generation() { return generation }
                        try await Task.sleep(for: .milliseconds(200))
                    }
                }
                #expect(back > 0)
                try await store.publish(
                    PostgresCatalogEngineTests.video("after-\(round)", at: Int64(round * 100_000 + 99_999)))
                // Woken by a notification after the restart, not by its 600 s timeout.
                let woken = Task { #expect(await waiter.value, "round \(round): woken by a notification") }
                let queued = try await withDeadline(
                    .seconds(120), "the LISTEN waiter to wake after the restart (round \(round))"
                ) {
                    try await PostgresCatalogEngineTests.queueJobsUntilWoken(
                        server, database: "crash", prefix: "round\(round)-", woken)
                }
                #expect(queued <= 30, "round \(round): the waiter woke on a notification")
            }
        }
    }
}
