/// A page and the catalog generation it was read at, from one snapshot.
public struct GeneratedPage: Sendable {
    public var page: FeedPage
    public var generation: Int64

    public init(page: FeedPage, generation: Int64) {
        self.page = page
        self.generation = generation
    }
}
