import FeedStore
import Logging
import PostgresCatalog

extension CatalogOpener {
    /// The pool runs in a child task for as long as `body` does; the schema is migrated first unless this is a replica.
    static func withPostgres<T: Sendable>(_ location: PostgresLocation, connections: Int, migrate: Bool, logger: Logger,
                                          _ body: @Sendable (any FeedStore) async throws -> T) async throws -> T {
        let store = PostgresFeedStore(location: location, connections: connections, logger: logger)
        return try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { await store.run() }
            defer { group.cancelAll() }
            if migrate { try await store.migrate() }
            return try await body(store)
        }
    }
}
