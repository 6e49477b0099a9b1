/// One page of the feed: the items and where the next page starts (nil at the end).
package struct FeedPage: Sendable, Equatable {
    package var items: [FeedItem]
    package var next: FeedPosition?

    /// Public for the catalog engines outside this module (PostgresCatalog).
    package init(items: [FeedItem], next: FeedPosition?) {
        self.items = items
        self.next = next
    }
}
