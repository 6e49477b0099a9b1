/// One page of the feed: the items and where the next page starts (nil at the end).
public struct FeedPage: Sendable, Equatable {
    public var items: [FeedItem]
    public var next: FeedPosition?

    /// Public for the catalog engines outside this module (PostgresCatalog).
    public init(items: [FeedItem], next: FeedPosition?) {
        self.items = items
        self.next = next
    }
}
