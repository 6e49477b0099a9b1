/// One page of the feed: the items and the cursor for the next page (nil at the end).
public struct FeedPage: Sendable, Equatable {
    public var items: [FeedItem]
    public var nextCursor: FeedCursor?

    /// Public for the catalog engines outside this module (PostgresCatalog).
    public init(items: [FeedItem], nextCursor: FeedCursor?) {
        self.items = items
        self.nextCursor = nextCursor
    }
}
