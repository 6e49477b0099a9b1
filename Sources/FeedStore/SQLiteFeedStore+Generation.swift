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
extension SQLiteFeedStore {
    /// The current generation, as of a read that starts now.
    /// - Throws: `CatalogError` when the catalog cannot be read.
    public func generation() throws(CatalogError) -> Int64 {
        do { return try database.feedReader.generation() } catch { throw Self.classify(error) }
    }

    /// A page and the generation it belongs to, never a page older than its generation (so a kept page is never
    /// stale): both come from one statement, and an empty page, which carries no generation, is read again after
    /// the generation.
    /// - Throws: `CatalogError` when the catalog cannot be read.
    public func pageWithGeneration(limit: Int, after cursor: FeedCursor?)
        throws(CatalogError) -> (page: FeedPage, generation: Int64) {
        precondition((1...FeedLimits.maximumPageSize).contains(limit), "the caller validates the limit")
        let start = cursor ?? FeedCursor(publishedAt: Int64.max, id: "\u{10FFFF}")
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
                // A row whose item was cleared by an edit outside FeedStore is rendered again from its columns.
                let json = try row.json ?? (try self.read { db in try Self.video(id: row.id, db) }).map(FeedItemJSON.render) ?? "null"
                items.append(FeedItem(id: row.id, publishedAt: row.publishedAt, json: json))
            }
            let next = items.count > limit ? FeedCursor(publishedAt: items[limit - 1].publishedAt, id: items[limit - 1].id) : nil
            return (FeedPage(items: Array(items.prefix(limit)), nextCursor: next), generation)
        } catch {
            throw Self.classify(error)
        }
    }

    static let generationSQL = "SELECT value FROM catalog_generation WHERE id = 1"

    /// Called inside every write transaction that changes what the feed shows.
    static func bumpGeneration(_ db: Database) throws {
        try db.cachedStatement(sql: "UPDATE catalog_generation SET value = value + 1 WHERE id = 1").execute()
    }
}
