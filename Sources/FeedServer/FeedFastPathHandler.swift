internal import HTTPTypes
internal import NIOCore
internal import NIOHTTPTypes

/// Puts `FeedFastPath` in the channel pipeline, after Hummingbird's connection-state handler (which so still sees
/// every request and response, for the idle timeout and graceful shutdown) and before the router.
///
/// A candidate request is held until its end: one with a body, or one the fast path cannot answer, goes on to the
/// router whole. While a request passed to the router is unanswered, later requests on the connection go there too,
/// so pipelined responses keep their order.
final class FeedFastPathHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    private let fastPath: FeedFastPath
    /// Requests passed to the router whose response has not ended.
    private var routed = 0
    private var held: HTTPRequest?
    private var needsFlush = false

    init(_ fastPath: FeedFastPath) { self.fastPath = fastPath }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let request):
            if routed == 0, held == nil, request.method == .get {
                held = request
                return
            }
            route(.head(request), context: context)
        case .body:
            releaseHeld(context: context)
            context.fireChannelRead(data)
        case .end:
            if let request = held {
                held = nil
                if let answer = fastPath.answer(request, client: { context.remoteAddress?.ipAddress }) {
                    context.write(wrapOutboundOut(.head(answer.head)), promise: nil)
                    if let body = answer.body { context.write(wrapOutboundOut(.body(body)), promise: nil) }
                    context.write(wrapOutboundOut(.end(nil)), promise: nil)
                    needsFlush = true
                    return
                }
                route(.head(request), context: context)
            }
            context.fireChannelRead(data)
        }
    }

    func channelReadComplete(context: ChannelHandlerContext) {
        if needsFlush {
            needsFlush = false
            context.flush()
        }
        context.fireChannelReadComplete()
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        if case .end = unwrapOutboundIn(data), routed > 0 { routed -= 1 }
        context.write(data, promise: promise)
    }

    func channelInactive(context: ChannelHandlerContext) {
        held = nil  // a request cut off before its end needs no answer
        context.fireChannelInactive()
    }

    private func releaseHeld(context: ChannelHandlerContext) {
        if let request = held {
            held = nil
            route(.head(request), context: context)
        }
    }

    private func route(_ part: HTTPRequestPart, context: ChannelHandlerContext) {
        if case .head = part { routed += 1 }
        context.fireChannelRead(wrapInboundOut(part))
    }
}
