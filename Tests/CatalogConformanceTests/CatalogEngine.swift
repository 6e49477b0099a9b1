import Catalog
import Foundation
import Logging
import MediaFixtures
import PostgresCatalog
import SQLiteCatalog
import Synchronization
import TestServers
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// The engines every conformance test runs against, unchanged: the same calls, the same expectations.
enum CatalogEngine: String, CaseIterable, CustomTestStringConvertible, Sendable {
    case sqlite, postgres

    var testDescription: String { rawValue }

    /// Runs `body` with a fresh, migrated catalog of this engine: a SQLite file in its own directory, or a database of
    /// its own on the process's PostgreSQL server.
    func withStore<T: Sendable>(
        _ body: @Sendable (any CatalogRoles & CatalogSeeding) async throws -> T
    ) async throws -> T {
        try await withCatalog { catalog in try await catalog.withStore(body) }
    }

    /// A fresh, empty catalog that tests may open more than once (two servers, a reopening after migration).
    func withCatalog<T: Sendable>(_ body: @Sendable (TestCatalog) async throws -> T) async throws -> T {
        switch self {
        case .sqlite:
            let directory = try TemporaryDirectory()
            let result = try await body(.sqlite(path: directory.file("catalog.sqlite")))
            withExtendedLifetime(directory) {}
            return result
        case .postgres:
            return try await body(.postgres(try await SharedPostgres.newDatabase()))
        }
    }
}

/// Where one test's catalog lives.
enum TestCatalog: Sendable {
    case sqlite(path: String)
    case postgres(PostgresLocation)

    /// Opens (and migrates) the catalog for as long as `body` runs: every role, and seeding to set tests up.
    func withStore<T: Sendable>(
        _ body: @Sendable (any CatalogRoles & CatalogSeeding) async throws -> T
    ) async throws -> T {
        switch self {
        case let .sqlite(path):
            return try await body(SQLiteCatalogEngine(database: try SQLiteCatalogDatabase(path: path)))
        case let .postgres(location):
            // Patient: in the full test run, blocking tests can hold the concurrency pool (which runs the connection
            // pool) for minutes; conformance is about what the engine answers, not how fast.
            let store = PostgresCatalogEngine(
                location: location, connections: 8, connectionWait: .seconds(300), logger: Logger(label: "conformance"))
            return try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask { await store.run() }
                defer { group.cancelAll() }
                try await store.migrate(waitingUpTo: 300)
                return try await body(store)
            }
        }
    }
}

/// One PostgreSQL server for the test process (initdb costs a second or two), killed when the process exits; each
/// test gets a database of its own on it.
actor SharedPostgres {
    static let shared = SharedPostgres()
    /// For the exit handler, which cannot await.
    private static let started = Mutex<PostgresTestServer?>(nil)
    private var starting: Task<PostgresTestServer, any Error>?
    private var next = 0

    static func newDatabase() async throws -> PostgresLocation { try await shared.newDatabase() }

    private func newDatabase() async throws -> PostgresLocation {
        let server = try await running()
        next += 1
        let name = "conformance_\(getpid())_\(next)"
        try await server.createDatabase(name)
        return PostgresLocation(host: server.host, port: server.port, user: PostgresTestServer.user, database: name)
    }

    private func running() async throws -> PostgresTestServer {
        if let starting { return try await starting.value }
        let task = Task { try await PostgresTestServer() }
        starting = task
        let server = try await task.value
        Self.started.withLock { $0 = server }
        atexit { SharedPostgres.started.withLock { $0?.kill() } }
        return server
    }
}
