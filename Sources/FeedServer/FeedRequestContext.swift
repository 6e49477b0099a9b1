public import Hummingbird
public import NIOCore

/// The request context: Hummingbird's core context plus the peer address, which the rate limiter keys on.
public struct FeedRequestContext: RequestContext, RemoteAddressRequestContext {
    public var coreContext: CoreRequestContextStorage
    public let remoteAddress: SocketAddress?

    public init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        remoteAddress = source.channel.remoteAddress
    }
}
