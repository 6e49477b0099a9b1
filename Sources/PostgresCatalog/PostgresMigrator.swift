package import Logging
package import PostgresNIO

/// Brings a PostgreSQL catalog up to `PostgresSchema`'s newest version. Every process that opens the catalog runs
/// it; an advisory lock makes the processes of many hosts starting at once apply each migration exactly once, and
/// each migration commits with its version row or not at all (PostgreSQL's DDL is transactional).
package struct PostgresMigrator: Sendable {
    /// The advisory lock key ("reel" in ASCII), held for the migrating transaction only.
    static let lockKey: Int64 = 0x7265_656C

    package let migrations: [PostgresSchema.Migration]

    package init(migrations: [PostgresSchema.Migration] = PostgresSchema.migrations) {
        self.migrations = migrations
    }

    /// Applies what is missing and returns the versions it applied (empty when the catalog was up to date). It waits
    /// up to `connectionWait` for a connection, and never longer than that for a server that went away meanwhile.
    /// - Throws: PostgreSQL's error, or `PostgresClient.ConnectionTimeout` / `.ConnectionLost`.
    @discardableResult
    package func migrate(
        _ client: PostgresClient, connectionWait: Duration = .seconds(120), logger: Logger
    ) async throws -> [Int] {
        let migrations = self.migrations
        return try await client.boundedTransaction(
            "migrate the catalog", connectionWait: connectionWait, logger: logger
        ) { connection in
            try await connection.query("SELECT pg_advisory_xact_lock(\(Self.lockKey))", logger: logger)
            try await connection.query(
                """
                CREATE TABLE IF NOT EXISTS schema_migrations (
                    version integer PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())
                """, logger: logger)
            var applied = Set<Int>()
            for try await version in try await connection.query("SELECT version FROM schema_migrations", logger: logger)
                .decode(Int.self)
            {
                applied.insert(version)
            }
            var done: [Int] = []
            for migration in migrations.sorted(by: { $0.version < $1.version })
            where !applied.contains(migration.version) {
                for statement in migration.statements {
                    try await connection.query(PostgresQuery(unsafeSQL: statement), logger: logger)
                }
                try await migration.fill?(connection, logger)
                try await connection.query(
                    "INSERT INTO schema_migrations (version, name) VALUES (\(migration.version), \(migration.name))",
                    logger: logger)
                logger.info(
                    "catalog migrated", metadata: ["version": "\(migration.version)", "name": "\(migration.name)"])
                done.append(migration.version)
            }
            return done
        }
    }
}
