package import Catalog
package import Logging
internal import PostgresCatalog
internal import SQLiteCatalog

/// Opens the catalog `--database` names (either engine), for the length of one command. SQLite opens (and migrates) in-process;
/// PostgreSQL needs its connection pool running while the command works, so the pool runs in a child task that ends
/// with `body`, after the schema is migrated.
package enum CatalogOpener {
    /// The whole catalog, and seeding for `reel db seed`; each command hands its parts only the roles they use.
    package static func with<T: Sendable>(
        _ location: DatabaseLocation, connections: Int = 8, logger: Logger,
        _ body: @Sendable (any CatalogRoles & CatalogSeeding) async throws -> T
    ) async throws -> T {
        switch location {
        case let .sqlite(path):
            return try await body(SQLiteCatalogEngine(database: try SQLiteCatalogDatabase(path: path)))
        case let .postgres(postgres):
            return try await withPostgres(postgres, connections: connections, migrate: true, logger: logger) {
                try await body($0)
            }
        }
    }

    /// The primary for everything and, with `--database-read`, a replica for the feed's reads.
    package static func with<T: Sendable>(
        _ location: DatabaseLocation, reading replica: DatabaseLocation?, connections: Int = 8, logger: Logger,
        _ body: @Sendable (any CatalogRoles) async throws -> T
    ) async throws -> T {
        try await with(location, connections: connections, logger: logger) { primary in
            guard let replica else { return try await body(primary) }
            return try await withReplica(replica, connections: connections, logger: logger) { reader in
                try await body(ReplicaReadingCatalog(primary: primary, feedReader: reader))
            }
        }
    }

    /// A replica is never migrated (it is read-only, and follows the primary's schema), and only read.
    private static func withReplica<T: Sendable>(
        _ location: DatabaseLocation, connections: Int, logger: Logger,
        _ body: @Sendable (any FeedReading) async throws -> T
    ) async throws -> T {
        try await withReadOnly(location, connections: connections, logger: logger) { try await body($0) }
    }

    /// The catalog as it is, opened for reading and never migrated: a `--database-read` replica, or the catalog
    /// `reel simulate` reads its videos and viewers from. A write fails (SQLite opens the file read-only).
    package static func withReadOnly<T: Sendable>(
        _ location: DatabaseLocation, connections: Int = 2, logger: Logger,
        _ body: @Sendable (any CatalogRoles) async throws -> T
    ) async throws -> T {
        switch location {
        case let .sqlite(path):
            return try await body(SQLiteCatalogEngine(database: try SQLiteCatalogDatabase(readOnlyPath: path)))
        case let .postgres(postgres):
            return try await withPostgres(postgres, connections: connections, migrate: false, logger: logger) {
                try await body($0)
            }
        }
    }

    /// The pool runs in a child task for as long as `body` does; the schema is migrated first unless this is a replica.
    private static func withPostgres<T: Sendable>(
        _ location: PostgresLocation, connections: Int, migrate: Bool, logger: Logger,
        _ body: @Sendable (PostgresCatalogEngine) async throws -> T
    ) async throws -> T {
        let store = PostgresCatalogEngine(location: location, connections: connections, logger: logger)
        return try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { await store.run() }
            defer { group.cancelAll() }
            if migrate { try await store.migrate() }
            return try await body(store)
        }
    }
}
