/// Where a feed page starts: the (published_at, id) of the last item before it, newest first. The catalog pages by
/// it; how a client carries it (the API's opaque cursor) is the feed server's business.
public struct FeedPosition: Sendable, Hashable {
    public let publishedAt: Int64
    public let id: String

    public init(publishedAt: Int64, id: String) {
        self.publishedAt = publishedAt
        self.id = id
    }

    /// Before every item: the first page.
    public static let start = FeedPosition(publishedAt: Int64.max, id: "\u{10FFFF}")
}
