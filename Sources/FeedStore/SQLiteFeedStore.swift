/// The catalog on SQLite, the embedded default. Reads run on the pool's readers, concurrently with the writer. Its
/// concerns live in extensions: the feed, jobs, publishing, tokens, uploads and seeding. Its methods are synchronous
/// (SQLite answers in microseconds) and satisfy `FeedStore`'s asynchronous requirements.
public struct SQLiteFeedStore: FeedStore, SynchronousFeed {
    public let database: FeedDatabase

    public init(database: FeedDatabase) { self.database = database }

    public var synchronousFeed: (any SynchronousFeed)? { self }
    public var readsPages: Bool { true }
    /// SQLite reads in-process: `synchronousFeed` answers on the event loop itself.
    public var eventLoopFeed: (any EventLoopFeed)? { nil }

    /// SQLite has no notifications between processes: the caller's poll interval is the wake-up, and it always looks.
    public func waitForQueuedJob(upTo seconds: Double) async -> Bool {
        try? await Task.sleep(for: .milliseconds(Int(max(0, seconds) * 1000)))
        return true
    }
}
