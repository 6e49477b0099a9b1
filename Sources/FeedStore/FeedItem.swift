/// One item of a feed page: where it sits in the feed, and its finished JSON object (`FeedItemJSON`).
public struct FeedItem: Sendable, Equatable {
    public var id: String
    /// Unix milliseconds.
    public var publishedAt: Int64
    public var json: String

    /// Public for the catalog engines outside this module (PostgresCatalog).
    public init(id: String, publishedAt: Int64, json: String) {
        self.id = id
        self.publishedAt = publishedAt
        self.json = json
    }
}
