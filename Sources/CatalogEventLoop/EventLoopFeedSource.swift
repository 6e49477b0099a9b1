package import Catalog

/// A feed reader that can also read pages from an event loop without leaving it (the PostgreSQL engine), found by a
/// cast: `(reader as? any EventLoopFeedSource)?.eventLoopFeed`.
package protocol EventLoopFeedSource: Sendable {
    /// Pages read from an event loop without leaving it, or nil when this reader has none.
    var eventLoopFeed: (any EventLoopFeed)? { get }
}

extension ReplicaReadingCatalog: EventLoopFeedSource {
    /// The replica's, since the feed's reads go to it.
    package var eventLoopFeed: (any EventLoopFeed)? { (feedReader as? any EventLoopFeedSource)?.eventLoopFeed }
}
