internal import NIOCore

/// Lets a connection read up to 1 MB from its socket at a time instead of NIO's default 64 KB. Each read becomes
/// one element of the request body's async stream, so an upload chunk of 5 MB is about 5 hand-overs instead of 80:
/// 5 MB PATCHes went from about 9.5 ms to 7.5 ms on loopback (scripts/bench-upload.sh). The allocator still starts
/// at 64 KB and only grows for connections that fill their reads, so feed requests keep small buffers.
final class LargeReadsHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = NIOAny

    func handlerAdded(context: ChannelHandlerContext) {
        // Only fails on a closed channel, which then has nothing left to read.
        try? context.channel.syncOptions?.setOption(
            ChannelOptions.recvAllocator,
            value: AdaptiveRecvByteBufferAllocator(minimum: 1024, initial: 64 * 1024, maximum: 1 << 20))
    }
}
