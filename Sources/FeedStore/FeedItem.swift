/// One item of a feed page: where it sits in the feed, and its finished JSON object (`FeedItemJSON`).
public struct FeedItem: Sendable, Equatable {
    public var id: String
    /// Unix milliseconds.
    public var publishedAt: Int64
    public var json: String
}
