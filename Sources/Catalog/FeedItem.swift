/// One item of a feed page: where it sits in the feed, and the video's facts as the catalog keeps them for the feed
/// (`FeedVideoRecord`). The feed server renders them; the catalog holds no URL and no API shape.
public struct FeedItem: Sendable, Equatable {
    public var id: String
    /// Unix milliseconds.
    public var publishedAt: Int64
    /// `FeedVideoRecord.encode` of the video.
    public var record: [UInt8]

    /// Public for the catalog engines outside this module (PostgresCatalog).
    public init(id: String, publishedAt: Int64, record: [UInt8]) {
        self.id = id
        self.publishedAt = publishedAt
        self.record = record
    }
}

extension FeedItem {
    /// The video's facts, decoded from `record`.
    public func video() throws(FeedVideoRecord.Malformed) -> FeedVideo { try FeedVideoRecord.decode(record) }
}
