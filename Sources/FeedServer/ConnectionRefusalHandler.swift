internal import NIOCore

/// The whole pipeline of a connection past `--max-connections`: a 503 written at once, then the connection closed,
/// without reading the request (whatever the client sends is dropped here, never decoded).
final class ConnectionRefusalHandler: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    static let body =
        #"{"error":{"code":"too_many_connections","message":"the server has as many connections as it takes; try again shortly"}}"#
    static let response =
        "HTTP/1.1 503 Service Unavailable\r\nConnection: close\r\nRetry-After: 1\r\nCache-Control: no-store\r\n"
        + "Content-Type: application/json; charset=utf-8\r\nContent-Length: \(body.utf8.count)\r\n\r\n\(body)"

    private var refused = false

    func handlerAdded(context: ChannelHandlerContext) {
        if context.channel.isActive { refuse(context: context) }
    }

    func channelActive(context: ChannelHandlerContext) {
        refuse(context: context)
        context.fireChannelActive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {}

    private func refuse(context: ChannelHandlerContext) {
        guard !refused else { return }
        refused = true
        let bytes = context.channel.allocator.buffer(string: Self.response)
        let channel = context.channel
        context.writeAndFlush(wrapOutboundOut(bytes)).whenComplete { _ in channel.close(promise: nil) }
    }
}
