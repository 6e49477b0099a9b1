internal import HummingbirdCore
internal import NIOCore

/// Answers plain `GET /v1/feed` requests at the socket end of the pipeline, before the HTTP decoder: on a kept page
/// the decoder, the HTTP types, five handlers each way and the encoder cost more than the page (docs/quirks.md).
///
/// It answers only a read that holds exactly one whole `FeedWireRequest`, and only while every byte of the
/// connection so far was answered here. The first read it does not answer hands the connection over for good: the
/// bytes go to the decoder unchanged, and Hummingbird's connection-state handler is put in the pipeline then, so it
/// has seen nothing it would count as half done. Until then this handler keeps that handler's rules: it closes a
/// connection idle for the idle timeout, and on a graceful shutdown (or the client's end of input) closes once what
/// it wrote has gone out. A connection here is always between requests (each is answered in the read that brought
/// it).
final class FeedWireHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer
    typealias OutboundIn = IOData
    typealias OutboundOut = IOData

    private let fastPath: FeedFastPath
    private let idleTimeout: TimeAmount?
    /// Put in the pipeline before `anchor` on hand-over.
    private var stateHandler: HTTPConnectionStateHandler?
    private let anchor: FeedFastPathHandler
    private enum Mode {
        case answering
        case handedOver
        /// Shutting down or idle: what still arrives is dropped, as Hummingbird's handler closes without reading on.
        case closing
    }
    private var mode = Mode.answering
    private var isAnswering: Bool { mode == .answering }
    private var needsFlush = false
    /// A read asked for while the socket would not take more: sent on once it will, so a client that does not read
    /// its answers cannot make this handler queue them without end.
    private var heldRead = false
    private var lastAnswer = NIODeadline.now()
    private var idleCheck: Scheduled<Void>?

    init(
        fastPath: FeedFastPath, idleTimeout: TimeAmount?, stateHandler: HTTPConnectionStateHandler,
        anchor: FeedFastPathHandler
    ) {
        self.fastPath = fastPath
        self.idleTimeout = idleTimeout
        self.stateHandler = stateHandler
        self.anchor = anchor
    }

    func handlerAdded(context: ChannelHandlerContext) {
        if context.channel.isActive { startIdleClock(context: context) }
    }

    func channelActive(context: ChannelHandlerContext) {
        startIdleClock(context: context)
        context.fireChannelActive()
    }

    func handlerRemoved(context: ChannelHandlerContext) { stopIdleClock() }

    func channelInactive(context: ChannelHandlerContext) {
        stopIdleClock()
        context.fireChannelInactive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch mode {
        case .answering: break
        case .handedOver: return context.fireChannelRead(data)
        case .closing: return
        }
        if let request = FeedWireRequest(unwrapInboundIn(data)),
            let answer = fastPath.answer(
                request, client: { context.remoteAddress?.ipAddress }, allocator: context.channel.allocator)
        {
            context.write(wrapOutboundOut(.byteBuffer(answer.head)), promise: nil)
            if let body = answer.body { context.write(wrapOutboundOut(.byteBuffer(body)), promise: nil) }
            needsFlush = true
            lastAnswer = .now()
            return
        }
        handOver(context: context)
        context.fireChannelRead(data)
    }

    func channelReadComplete(context: ChannelHandlerContext) {
        if needsFlush {
            needsFlush = false
            context.flush()
        }
        // Nothing after this handler has seen a byte while it answers.
        if mode == .handedOver { context.fireChannelReadComplete() }
    }

    func read(context: ChannelHandlerContext) {
        if isAnswering, !context.channel.isWritable {
            heldRead = true
            return
        }
        context.read()
    }

    func channelWritabilityChanged(context: ChannelHandlerContext) {
        if heldRead, context.channel.isWritable {
            heldRead = false
            context.read()
        }
        context.fireChannelWritabilityChanged()
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        let isEnd = event is ChannelShouldQuiesceEvent || (event as? ChannelEvent) == .inputClosed
        guard isAnswering, isEnd else {
            context.fireUserInboundEventTriggered(event)
            return
        }
        // A shutdown, or the client done sending, between requests: close once every answer written has gone out
        // (an empty write completes after them).
        mode = .closing
        stopIdleClock()
        let channel = context.channel
        context.writeAndFlush(wrapOutboundOut(.byteBuffer(channel.allocator.buffer(capacity: 0))))
            .whenComplete { _ in channel.close(promise: nil) }
    }

    /// From now on every byte goes to the decoder, and Hummingbird's handler keeps the idle timeout and shutdown.
    private func handOver(context: ChannelHandlerContext) {
        mode = .handedOver
        stopIdleClock()
        if let stateHandler {
            self.stateHandler = nil
            do {
                try context.pipeline.syncOperations.addHandler(stateHandler, position: .before(anchor))
            } catch {
                context.close(promise: nil)
            }
        }
        if heldRead {
            heldRead = false
            context.read()
        }
    }

    // MARK: The idle timeout, as HTTPConnectionStateHandler keeps it

    private func startIdleClock(context: ChannelHandlerContext) {
        guard let idleTimeout, isAnswering, idleCheck == nil else { return }
        lastAnswer = .now()
        scheduleIdleCheck(at: lastAnswer + idleTimeout, context: context)
    }

    /// Checks at `deadline`, and again at the last answer plus the timeout until that has passed (no timer is moved
    /// per request).
    private func scheduleIdleCheck(at deadline: NIODeadline, context: ChannelHandlerContext) {
        idleCheck = context.eventLoop.assumeIsolated().scheduleTask(deadline: deadline) {
            self.idleCheck = nil
            guard self.isAnswering, let idleTimeout = self.idleTimeout else { return }
            let due = self.lastAnswer + idleTimeout
            if NIODeadline.now() >= due {
                self.mode = .closing
                context.close(promise: nil)
            } else {
                self.scheduleIdleCheck(at: due, context: context)
            }
        }
    }

    private func stopIdleClock() {
        idleCheck?.cancel()
        idleCheck = nil
    }
}
