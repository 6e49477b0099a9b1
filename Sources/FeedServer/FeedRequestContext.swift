public import Hummingbird
public import NIOCore

/// The request context: Hummingbird's core context plus the peer address, which the rate limiter keys on, and the
/// connection, which `ExpectContinueMiddleware` tells when the body is wanted.
public struct FeedRequestContext: RequestContext, RemoteAddressRequestContext {
    public var coreContext: CoreRequestContextStorage
    public let remoteAddress: SocketAddress?
    /// The request's connection (nil only in contexts made without one).
    let channel: (any Channel)?

    public init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        remoteAddress = source.channel.remoteAddress
        channel = source.channel
    }
}
