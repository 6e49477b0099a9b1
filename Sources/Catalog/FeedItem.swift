/// One item of a feed page: where it sits in the feed, and the video's facts as the catalog keeps them for the feed
/// (`FeedVideoRecord`). The feed server renders them; the catalog holds no URL and no API shape.
package struct FeedItem: Sendable, Equatable {
    package var id: String
    /// Unix milliseconds.
    package var publishedAt: Int64
    /// `FeedVideoRecord.encode` of the video.
    package var record: [UInt8]

    /// Public for the catalog engines outside this module (PostgresCatalog).
    package init(id: String, publishedAt: Int64, record: [UInt8]) {
        self.id = id
        self.publishedAt = publishedAt
        self.record = record
    }
}

extension FeedItem {
    /// The video's facts, decoded from `record`.
    package func video() throws(FeedVideoRecord.Malformed) -> FeedVideo { try FeedVideoRecord.decode(record) }
}
