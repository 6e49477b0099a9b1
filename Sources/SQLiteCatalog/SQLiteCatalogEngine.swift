package import Catalog

/// The catalog on SQLite, the embedded default. Reads run on the pool's readers, concurrently with the writer. Its
/// roles live in extensions: the feed, jobs, publishing, tokens, uploads and seeding. Every role's method is
/// `async` and goes through GRDB's async access, which runs on GRDB's dispatch queues: the concurrency pool (one
/// thread per core) never waits on SQLite's lock or busy timeout. Only `SynchronousFeed`'s two reads, for the event
/// loop, have synchronous overloads of the same name; async code always gets the `async` ones.
package struct SQLiteCatalogEngine: CatalogRoles, CatalogSeeding, SynchronousFeed {
    package let database: SQLiteCatalogDatabase

    package init(database: SQLiteCatalogDatabase) { self.database = database }

    package var synchronousFeed: (any SynchronousFeed)? { self }
    package var readsPages: Bool { true }

    /// SQLite has no notifications between processes: the caller's poll interval is the wake-up, and it always looks.
    package func waitForQueuedJob(upTo seconds: Double) async -> Bool {
        try? await Task.sleep(for: .milliseconds(Int(max(0, seconds) * 1000)))
        return true
    }
}
