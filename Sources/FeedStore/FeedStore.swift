/// Reads and writes the catalog. Reads run on the pool's readers, concurrently with the writer. Every failure
/// arrives as a `CatalogError`. Its concerns live in extensions: the feed, jobs, publishing and seeding.
public struct FeedStore: Sendable {
    public let database: FeedDatabase
    public static let maximumLimit = 50

    public init(database: FeedDatabase) { self.database = database }
}
