import Foundation
import Logging
import MediaFixtures
import PostgresNIO
import TestServers
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// The throwaway server the PostgreSQL tests stand on: it really runs, as an unprivileged user, on its own port,
/// keeps its data across a restart, and gives each test a database of its own.
@Suite(.timeLimit(.minutes(5))) struct PostgresTestServerTests {
    /// PSQLError hides its details from `description`; tests want them in the report.
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    static func configuration(_ server: PostgresTestServer, database: String) -> PostgresClient.Configuration {
        PostgresClient.Configuration(
            host: server.host, port: server.port, username: PostgresTestServer.user, password: nil,
            database: database, tls: .disable)
    }

    /// Runs `body` with a client connected to `database`, then shuts the client down.
    @discardableResult
    static func withClient<T: Sendable>(
        _ server: PostgresTestServer, database: String,
        _ body: @Sendable (PostgresClient) async throws -> T
    ) async throws -> T {
        let client = PostgresClient(configuration: configuration(server, database: database))
        return try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { await client.run() }
            defer { group.cancelAll() }
            do {
                return try await body(client)
            } catch let error as PSQLError {
                throw Failure(description: String(reflecting: error))
            }
        }
    }

    @Test func aServerStartsAnswersAndRunsAsAnUnprivilegedUser() async throws {
        let server = try await PostgresTestServer()
        let version = try await Self.withClient(server, database: "postgres") { client in
            var version = ""
            for try await (text) in try await client.query("SELECT version()").decode(String.self) { version = text }
            return version
        }
        #expect(version.hasPrefix("PostgreSQL 15"), "\(version)")
        let owner = try #require(
            FileManager.default.attributesOfItem(atPath: server.dataDirectory)[.ownerAccountID] as? Int)
        #expect(owner != 0, "the cluster must not belong to root")
        if getuid() == 0 { #expect(owner == Int(getpwnam("postgres")!.pointee.pw_uid)) }
    }

    @Test func eachTestGetsItsOwnDatabaseAndDataSurvivesARestart() async throws {
        let server = try await PostgresTestServer()
        try await server.createDatabase("first")
        try await server.createDatabase("second")
        try await Self.withClient(server, database: "first") { client in
            try await client.query("CREATE TABLE items (id integer PRIMARY KEY, name text NOT NULL)")
            try await client.query("INSERT INTO items VALUES (1, \("one"))")
        }
        // The other database has no such table.
        await #expect(throws: Failure.self) {
            try await Self.withClient(server, database: "second") { client in
                for try await _ in try await client.query("SELECT id FROM items").decode(Int.self) {}
            }
        }
        await server.stop()
        try await server.start()
        let names = try await Self.withClient(server, database: "first") { client in
            var names: [String] = []
            for try await (name) in try await client.query("SELECT name FROM items ORDER BY id").decode(String.self) {
                names.append(name)
            }
            return names
        }
        #expect(names == ["one"])
    }

    @Test func twoServersGetDifferentPorts() async throws {
        let first = try await PostgresTestServer()
        let second = try await PostgresTestServer()
        #expect(first.port != second.port)
        #expect(first.url(database: "x") == "postgres://reel@127.0.0.1:\(first.port)/x")
    }

    /// A loaded run lost a server whose port someone bound between the pick and the server's start ("Address already
    /// in use"): the server now starts on another port instead of failing the test.
    @Test func aPortTakenBeforeTheServerBindsItIsReplacedByAnother() async throws {
        let holder = try LoopbackListener()
        let taken = Int(holder.port)
        #expect(try !FreePort.isFree(taken, host: "127.0.0.1"))
        let server = try await PostgresTestServer(port: taken)
        #expect(server.port != taken)
        let one = try await Self.withClient(server, database: "postgres") { client in
            var value = 0
            for try await (number) in try await client.query("SELECT 1").decode(Int.self) { value = number }
            return value
        }
        #expect(one == 1)
        _ = holder.acceptedConnections()
    }

    /// Picks come from below the kernel's ephemeral range, so no outgoing connection or bind to 0 is given them.
    /// (That a pick was free when it was made is `pick`'s own check; checking it again here raced the tests running
    /// beside it, whose servers bind such ports: 2 of 50 failed in a starved run.)
    @Test func picksAreBelowTheEphemeralRange() throws {
        let start = FreePort.ephemeralStart()
        for _ in 0..<50 {
            let port = try FreePort.pick()
            #expect(port < start && port >= 1024, "\(port) against the range starting at \(start)")
        }
    }
}
