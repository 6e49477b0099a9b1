internal import HTTPTypes
internal import NIOCore
internal import NIOHTTPTypes

/// `Expect: 100-continue`, answered only once a handler starts to read the body (`ExpectContinueMiddleware` sends
/// `SendContinue` then), the way Go's net/http does. The upload routes read the body only after the token is
/// accepted, so an unauthenticated PATCH gets its 401 without a 100, and the client never sends the body.
///
/// A request whose final answer goes out before its 100 did is answered with `Connection: close` and its connection
/// closed after that answer, without reading the body (RFC 9110 §10.1.1 lets the server choose; reading it would
/// take in what the client was told it need not send). curl sends the header with every body over 1 MB and waits a
/// second for the 100 before sending anyway, so answering it when the body is wanted keeps those uploads fast.
final class ExpectContinueHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    /// The outbound user event a handler's first read of the body sends down the pipeline.
    struct SendContinue: Sendable {}

    /// A request with a body waits for its 100.
    private var awaitingContinue = false
    /// Its final answer went out first: drop what it sends and close after the answer.
    private var closing = false

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let part = unwrapInboundIn(data)
        if closing { return }
        if case .head(let request) = part, Self.expectsContinue(request) { awaitingContinue = true }
        if case .end = part { awaitingContinue = false }
        context.fireChannelRead(data)
    }

    func triggerUserOutboundEvent(context: ChannelHandlerContext, event: Any, promise: EventLoopPromise<Void>?) {
        guard event is SendContinue else { return context.triggerUserOutboundEvent(event, promise: promise) }
        if awaitingContinue {
            awaitingContinue = false
            context.writeAndFlush(wrapOutboundOut(.head(HTTPResponse(status: .continue))), promise: nil)
        }
        promise?.succeed()
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        switch unwrapOutboundIn(data) {
        case .head(var response) where awaitingContinue && response.status.kind != .informational:
            awaitingContinue = false
            closing = true
            response.headerFields[.connection] = "close"
            context.write(wrapOutboundOut(.head(response)), promise: promise)
        case .end where closing:
            let channel = context.channel
            context.writeAndFlush(data).whenComplete { result in
                promise?.completeWith(result)
                channel.close(promise: nil)
            }
        default:
            context.write(data, promise: promise)
        }
    }

    /// `Expect: 100-continue` on a request that has a body to send.
    static func expectsContinue(_ request: HTTPRequest) -> Bool {
        guard request.headerFields[.expect]?.lowercased() == "100-continue" else { return false }
        return request.headerFields[.contentLength] != "0"
    }
}
