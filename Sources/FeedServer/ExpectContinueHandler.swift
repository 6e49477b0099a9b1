internal import HTTPTypes
internal import NIOCore
internal import NIOHTTPTypes

/// Answers `Expect: 100-continue` at once. curl sends it with every body over 1 MB and then waits a second for the
/// answer before sending the body; without this, each 5 MB upload chunk from curl cost a second of idle waiting.
/// The request itself is judged afterwards as usual (a refused upload is still refused, its body discarded).
final class ExpectContinueHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundOut = HTTPResponsePart

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        if case let .head(request) = unwrapInboundIn(data),
            request.headerFields[.expect]?.lowercased() == "100-continue"
        {
            context.writeAndFlush(wrapOutboundOut(.head(HTTPResponse(status: .continue))), promise: nil)
        }
        context.fireChannelRead(data)
    }
}
