package import Catalog
internal import Foundation
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
extension SQLiteCatalogEngine {
    /// The current generation, as of a read that starts now, read on GRDB's reader queue: the router's path (and
    /// every caller in async code).
    /// - Throws: `CatalogError` when the catalog cannot be read.
    package func generation() async throws(CatalogError) -> Int64 {
        try await read { db in try Int64.fetchOne(db.cachedStatement(sql: Self.generationSQL)) ?? 0 }
    }

    /// A page and the generation it belongs to, from one read snapshot on GRDB's reader queue: the router's path.
    /// The same statement as the fast path's; an empty page, which carries no generation, reads it in the same snapshot.
    /// - Throws: `CatalogError` when the catalog cannot be read.
    package func pageWithGeneration(
        limit: Int, after cursor: FeedPosition?
    )
        async throws(CatalogError) -> (page: FeedPage, generation: Int64)
    {
        precondition((1...FeedLimits.maximumPageSize).contains(limit), "the caller validates the limit")
        let start = cursor ?? FeedPosition.start
        return try await read { db in
            let rows = try Row.fetchAll(
                db.cachedStatement(sql: Self.pageSQL), arguments: [start.publishedAt, start.id, limit + 1])
            var items: [FeedItem] = []
            items.reserveCapacity(rows.count)
            for row in rows {
                let id: String = row[1]
                // A row whose record was cleared by an edit outside Reel is encoded again from its columns.
                items.append(FeedItem(id: id, publishedAt: row[0], record: try Self.record(stored: row[2], id: id, db)))
            }
            let generation =
                try (rows.last?[3] as Int64?) ?? Int64.fetchOne(db.cachedStatement(sql: Self.generationSQL)) ?? 0
            return (Self.makePage(items, limit: limit), generation)
        }
    }

    // MARK: The event-loop fast path (`SynchronousFeed`)

    /// The current generation, without suspending: for `SynchronousFeed` callers on an event loop only. Async code
    /// gets the `async` overload, which reads on GRDB's queue.
    /// - Throws: `CatalogError` when the catalog cannot be read.
    package func generation() throws(CatalogError) -> Int64 {
        do { return try database.feedReader.generation() } catch { throw Self.classify(error) }
    }

    /// A page and the generation it belongs to, without suspending: for `SynchronousFeed` callers on an event loop
    /// only. Never a page older than its generation (so a kept page is never stale): both come from one statement,
    /// and an empty page, which carries no generation, is read again after the generation.
    /// - Throws: `CatalogError` when the catalog cannot be read.
    package func pageWithGeneration(
        limit: Int, after cursor: FeedPosition?
    )
        throws(CatalogError) -> (page: FeedPage, generation: Int64)
    {
        precondition((1...FeedLimits.maximumPageSize).contains(limit), "the caller validates the limit")
        let start = cursor ?? FeedPosition.start
        let reader = database.feedReader
        do {
            var read = try reader.rows(count: limit + 1, before: start.publishedAt, start.id)
            let generation: Int64
            if let found = read.generation {
                generation = found
            } else {
                generation = try reader.generation()
                read = try reader.rows(count: limit + 1, before: start.publishedAt, start.id)
            }
            var items: [FeedItem] = []
            items.reserveCapacity(read.rows.count)
            for row in read.rows {
                // A row whose record was cleared by an edit outside Reel is encoded again from its columns.
                let record =
                    try row.record ?? (try readSynchronously { db in try Self.record(stored: nil, id: row.id, db) })
                items.append(FeedItem(id: row.id, publishedAt: row.publishedAt, record: record))
            }
            return (Self.makePage(items, limit: limit), generation)
        } catch {
            throw Self.classify(error)
        }
    }

    /// The first `limit` of up to `limit + 1` items, with a cursor when there was one more.
    static func makePage(_ items: [FeedItem], limit: Int) -> FeedPage {
        let next =
            items.count > limit ? FeedPosition(publishedAt: items[limit - 1].publishedAt, id: items[limit - 1].id) : nil
        return FeedPage(items: Array(items.prefix(limit)), next: next)
    }

    static let generationSQL = "SELECT value FROM catalog_generation WHERE id = 1"

    /// Called inside every write transaction that changes what the feed shows.
    static func bumpGeneration(_ db: Database) throws {
        try db.cachedStatement(sql: "UPDATE catalog_generation SET value = value + 1 WHERE id = 1").execute()
    }
}
