internal import HTTPTypes
internal import NIOCore
internal import NIOHTTPTypes
internal import ViewerAnalytics

/// Puts `FeedFastPath` and `EventsFastPath` in the channel pipeline, after Hummingbird's connection-state handler
/// (which so still sees every request and response, for the idle timeout and graceful shutdown) and before the router.
///
/// A candidate request is held until its end: a feed request with a body, an events body past the batch limit, or
/// one the fast path cannot answer, goes on to the router whole. While a request passed to the router is unanswered,
/// later requests on the connection go there too, and while a page is being read from a networked catalog (or a batch
/// committed) later requests wait here, so pipelined responses keep their order. Meanwhile reads from the socket are
/// held back, so what waits here is at most what one read brought (a pipelining client cannot fill memory while a
/// slow catalog answers), and a request with `Expect` goes to the router, which answers `100-continue`.
final class FeedFastPathHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    private let fastPath: FeedFastPath?
    private let events: EventsFastPath?
    /// Requests passed to the router whose response has not ended.
    private var routed = 0
    private var held: HTTPRequest?
    /// The held request is a batch of events: its body so far, and when it began.
    private var heldEvents: (body: ByteBuffer, started: ContinuousClock.Instant)?
    private var needsFlush = false
    /// A page is being read for the held request (`FeedFastPath.Query`); parts that arrive meanwhile wait in `waiting`.
    private var querying = false
    private var waiting: [HTTPRequestPart] = []
    /// A read the channel asked for while `querying`, passed on once the answer is written.
    private var heldRead = false

    init(feed: FeedFastPath?, events: EventsFastPath?) {
        fastPath = feed
        self.events = events
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let part = unwrapInboundIn(data)
        if querying {
            waiting.append(part)
            return
        }
        read(part, context: context)
    }

    private func read(_ part: HTTPRequestPart, context: ChannelHandlerContext) {
        switch part {
        case .head(let request):
            if routed == 0, held == nil, request.headerFields[.expect] == nil {
                if fastPath != nil, request.method == .get {
                    held = request
                    return
                }
                if let events, events.takes(request, client: { context.remoteAddress?.ipAddress }) {
                    held = request
                    heldEvents = (context.channel.allocator.buffer(capacity: 0), .now)
                    return
                }
            }
            route(.head(request), context: context)
        case .body(let bytes):
            if var batch = heldEvents {
                // Past the limit the router refuses it (413) as it reads on: it gets what was held and the rest.
                guard batch.body.readableBytes + bytes.readableBytes <= ViewerEventBatch.maximumBytes else {
                    releaseHeld(context: context)
                    context.fireChannelRead(wrapInboundOut(part))
                    return
                }
                heldEvents = nil  // no second reference while the body grows
                batch.body.writeImmutableBuffer(bytes)
                heldEvents = batch
                return
            }
            releaseHeld(context: context)
            context.fireChannelRead(wrapInboundOut(part))
        case .end:
            if let batch = heldEvents, let events, let request = held {
                held = nil
                heldEvents = nil
                startEvents(request, batch: batch, events: events, end: part, context: context)
                return
            }
            if let request = held, let fastPath {
                held = nil
                switch fastPath.decide(request, client: { context.remoteAddress?.ipAddress }) {
                case let .answer(answer):
                    write(answer, context: context)
                    needsFlush = true
                    return
                case let .query(query):
                    startQuery(query, end: part, context: context)
                    return
                case .router:
                    route(.head(request), context: context)
                }
            }
            context.fireChannelRead(wrapInboundOut(part))
        }
    }

    /// Reads the page (on a connection pinned to this loop, or off the loop), then answers on the loop (or, when the
    /// fast path cannot, hands the request to the router) and goes on with whatever arrived meanwhile.
    private func startQuery(_ query: FeedFastPath.Query, end: HTTPRequestPart, context: ChannelHandlerContext) {
        guard let fastPath else { return }
        querying = true
        let bound = NIOLoopBound((handler: self, context: context), eventLoop: context.eventLoop)
        fastPath.answer(query, on: context.eventLoop).whenComplete { result in
            let (handler, context) = bound.value
            handler.finish(query.request, body: nil, answer: (try? result.get()) ?? nil, end: end, context: context)
        }
    }

    /// Commits the batch, then answers 204 on the loop (or, when the fast path cannot, hands the request and its body
    /// to the router) and goes on with whatever arrived meanwhile, as a feed query does.
    private func startEvents(
        _ request: HTTPRequest, batch: (body: ByteBuffer, started: ContinuousClock.Instant), events: EventsFastPath,
        end: HTTPRequestPart, context: ChannelHandlerContext
    ) {
        querying = true
        let bound = NIOLoopBound((handler: self, context: context), eventLoop: context.eventLoop)
        let client = context.remoteAddress?.ipAddress
        events.answer(request, body: batch.body, client: client, started: batch.started, on: context.eventLoop)
            .whenComplete { result in
                let (handler, context) = bound.value
                handler.finish(
                    request, body: batch.body, answer: (try? result.get()) ?? nil, end: end, context: context)
            }
    }

    private func finish(
        _ request: HTTPRequest, body: ByteBuffer?, answer: FeedFastPath.Answer?, end: HTTPRequestPart,
        context: ChannelHandlerContext
    ) {
        querying = false
        guard context.channel.isActive else {
            waiting.removeAll()
            return
        }
        if let answer {
            write(answer, context: context)
            context.flush()
        } else {
            route(.head(request), context: context)
            if let body, body.readableBytes > 0 { context.fireChannelRead(wrapInboundOut(.body(body))) }
            context.fireChannelRead(wrapInboundOut(end))
            context.fireChannelReadComplete()
        }
        while !querying, !waiting.isEmpty {
            read(waiting.removeFirst(), context: context)
        }
        if needsFlush {
            needsFlush = false
            context.flush()
        }
        if heldRead, !querying {
            heldRead = false
            context.read()
        }
    }

    /// No more bytes from the socket while a page is read or a batch committed: the parts of one read are all that
    /// `waiting` ever holds.
    func read(context: ChannelHandlerContext) {
        if querying {
            heldRead = true
        } else {
            context.read()
        }
    }

    private func write(_ answer: FeedFastPath.Answer, context: ChannelHandlerContext) {
        context.write(wrapOutboundOut(.head(answer.head)), promise: nil)
        if let body = answer.body { context.write(wrapOutboundOut(.body(body)), promise: nil) }
        context.write(wrapOutboundOut(.end(nil)), promise: nil)
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
        heldEvents = nil
        waiting.removeAll()
        context.fireChannelInactive()
    }

    private func releaseHeld(context: ChannelHandlerContext) {
        if let request = held {
            held = nil
            route(.head(request), context: context)
            if let batch = heldEvents {
                heldEvents = nil
                if batch.body.readableBytes > 0 { context.fireChannelRead(wrapInboundOut(.body(batch.body))) }
            }
        }
    }

    private func route(_ part: HTTPRequestPart, context: ChannelHandlerContext) {
        if case .head = part { routed += 1 }
        context.fireChannelRead(wrapInboundOut(part))
    }
}
