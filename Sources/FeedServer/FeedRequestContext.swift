package import Hummingbird
package import NIOCore

/// The request context: Hummingbird's core context plus the peer address, which the rate limiter keys on, and the
/// connection, which `ExpectContinueMiddleware` tells when the body is wanted.
package struct FeedRequestContext: RequestContext, RemoteAddressRequestContext {
    package var coreContext: CoreRequestContextStorage
    package let remoteAddress: SocketAddress?
    /// The request's connection (nil only in contexts made without one).
    let channel: (any Channel)?

    package init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        remoteAddress = source.channel.remoteAddress
        channel = source.channel
    }
}
