/// Where a feed page starts: the (published_at, id) of the last item before it, newest first. The catalog pages by
/// it; how a client carries it (the API's opaque cursor) is the feed server's business.
package struct FeedPosition: Sendable, Hashable {
    package let publishedAt: Int64
    package let id: String

    package init(publishedAt: Int64, id: String) {
        self.publishedAt = publishedAt
        self.id = id
    }

    /// Before every item: the first page.
    package static let start = FeedPosition(publishedAt: Int64.max, id: "\u{10FFFF}")
}
