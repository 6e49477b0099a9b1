internal import GRDB

/// The catalog generation: a number that changes in every write transaction that changes the feed, so a server
/// can keep finished pages until it changes.
///
/// Why a row and not `PRAGMA data_version`: `data_version` is per connection (it moves when *another* connection
/// commits), and a `DatabasePool` reads through several connections, so two requests could compare versions from
/// different connections; it also moves on every job progress update, which does not change the feed. The row is
/// written inside the publish transaction itself, so it commits atomically with the video: a reader that starts
/// after the commit — on any connection, in any process — sees both, and a reader that started before sees neither.
/// Reading it is one primary-key lookup in a one-row table.
extension FeedStore {
    /// The current generation, as of a read that starts now.
    /// - Throws: `CatalogError` when the catalog cannot be read.
    public func generation() throws(CatalogError) -> Int64 {
        // One statement outside an explicit transaction is its own read transaction, which starts at the latest
        // commit; skipping BEGIN/COMMIT halves the cost of the check on every feed request.
        do {
            return try database.pool.unsafeRead { db in
                try Int64.fetchOne(db.cachedStatement(sql: Self.generationSQL)) ?? 0
            }
        } catch {
            throw Self.classify(error)
        }
    }

    /// A page and the generation it was read at, in one read transaction, so the two always agree.
    /// - Throws: `CatalogError` when the catalog cannot be read.
    public func pageWithGeneration(limit: Int, after cursor: FeedCursor?)
        throws(CatalogError) -> (page: FeedPage, generation: Int64) {
        try read { db in
            let generation = try Int64.fetchOne(db.cachedStatement(sql: Self.generationSQL)) ?? 0
            return (try Self.page(limit: limit, after: cursor, db), generation)
        }
    }

    static let generationSQL = "SELECT value FROM catalog_generation WHERE id = 1"

    /// Called inside every write transaction that changes what the feed shows.
    static func bumpGeneration(_ db: Database) throws {
        try db.cachedStatement(sql: "UPDATE catalog_generation SET value = value + 1 WHERE id = 1").execute()
    }
}
