package import Catalog
package import NIOCore

/// Feed pages read from an event loop and completed on it, future to future, for an engine reached over the network
/// (PostgreSQL). A page is one round trip; handing each request to the concurrency pool and back cost more than that.
/// It lives outside the `Catalog` interface so that the interface links no NIO.
package protocol EventLoopFeed: Sendable {
    /// The page and the generation it belongs to, completed on `eventLoop`. A failure (server down, a stored item that
    /// needs rendering again) sends the request the general way, which explains it.
    func page(limit: Int, after cursor: FeedPosition?, on eventLoop: any EventLoop) -> EventLoopFuture<GeneratedPage>
}
