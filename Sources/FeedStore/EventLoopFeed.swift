public import NIOCore

/// Feed pages read from an event loop and completed on it, future to future, for an engine reached over the network
/// (PostgreSQL). A page is one round trip; handing each request to the concurrency pool and back cost more than that.
public protocol EventLoopFeed: Sendable {
    /// The page and the generation it belongs to, completed on `eventLoop`. A failure (server down, a stored item that
    /// needs rendering again) sends the request the general way, which explains it.
    func page(limit: Int, after cursor: FeedPosition?, on eventLoop: any EventLoop) -> EventLoopFuture<GeneratedPage>
}

/// A page and the catalog generation it was read at, from one snapshot.
public struct GeneratedPage: Sendable {
    public var page: FeedPage
    public var generation: Int64

    public init(page: FeedPage, generation: Int64) {
        self.page = page
        self.generation = generation
    }
}
