internal import NIOCore

/// The socket end of `RequestDeadlineHandler`: first in the pipeline, before the HTTP decoder, it sees each read as
/// it is asked for and as its bytes arrive, which the decoder's request parts cannot show (a head trickled a byte at
/// a time makes no part until it is whole).
final class RequestBytesMeter: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer
    typealias OutboundIn = NIOAny
    typealias OutboundOut = NIOAny

    private let deadline: RequestDeadlineHandler

    init(reportingTo deadline: RequestDeadlineHandler) { self.deadline = deadline }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        deadline.received(unwrapInboundIn(data).readableBytes)
        context.fireChannelRead(data)
    }

    func channelReadComplete(context: ChannelHandlerContext) {
        context.fireChannelReadComplete()
        deadline.readComplete()
    }

    func read(context: ChannelHandlerContext) {
        deadline.serverAwaitsBytes()
        context.read()
    }
}
