internal import HTTPTypes
internal import Logging
internal import Metrics
internal import NIOCore
internal import NIOHTTPTypes

/// Holds each request to `RequestDeadlines`. It sits right after the HTTP codec and sees where requests begin and
/// end and which responses are being written; `RequestBytesMeter`, at the socket end of the pipeline, tells it when
/// bytes arrive and when the server is waiting for them. A request that falls behind gets a 408 when nothing else is
/// being answered on its connection (else no answer: bytes of a response already under way cannot be taken back),
/// then the connection closes.
///
/// The clock runs from a request's first byte, only while the server waits to read: a `read()` has gone down the
/// pipeline and no bytes have come back. While a handler holds reads back (backpressure), the client is not late.
final class RequestDeadlineHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    enum Phase: String {
        /// Between requests: the idle timeout's business, not this handler's.
        case idle
        case head
        case body
    }

    private let deadlines: RequestDeadlines
    private let timeouts: (head: Counter, body: Counter)?
    private let logger: Logger
    private(set) var phase = Phase.idle
    /// Time spent waiting for the client in this phase, up to `waitingSince`.
    private var waited = Duration.zero
    /// Since when the server has been waiting for bytes (a read is pending), or nil.
    private var waitingSince: ContinuousClock.Instant?
    private var bodyBytes = 0
    private var timer: Scheduled<Void>?
    /// Request heads read whose responses have not ended; response heads written whose ends have not.
    private var unanswered = 0
    private var responding = 0
    private var expired = false
    private var context: ChannelHandlerContext?

    init(deadlines: RequestDeadlines, factory: (any MetricsFactory)?, logger: Logger) {
        self.deadlines = deadlines
        self.logger = logger
        timeouts = factory.map {
            (
                Counter(label: "reel_http_request_timeouts_total", dimensions: [("phase", "head")], factory: $0),
                Counter(label: "reel_http_request_timeouts_total", dimensions: [("phase", "body")], factory: $0)
            )
        }
    }

    func handlerAdded(context: ChannelHandlerContext) { self.context = context }

    func handlerRemoved(context: ChannelHandlerContext) {
        cancelTimer()
        self.context = nil
    }

    // MARK: From RequestBytesMeter

    /// A read went down to the socket: from now on the server is waiting for the client. Between requests no clock
    /// runs, so a request that arrives whole in one read never reads the time.
    func serverAwaitsBytes() {
        if phase != .idle, waitingSince == nil { waitingSince = .now }
    }

    /// `count` bytes came up from the socket. Outside a request, they begin the next one's head.
    func received(_ count: Int) {
        settleWaiting()
        waitingSince = nil
        switch phase {
        case .idle: begin(.head)
        case .head: break
        case .body: bodyBytes += count
        }
    }

    /// The bytes read so far have gone up the pipeline: a request still unfinished gets its timer.
    func readComplete() {
        if phase != .idle, timer == nil { arm(in: remaining()) }
    }

    // MARK: Requests and responses

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard !expired else { return }
        switch unwrapInboundIn(data) {
        case .head:
            unanswered += 1
            begin(.body)
        case .body: break
        case .end: begin(.idle)
        }
        context.fireChannelRead(data)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        guard !expired else {
            promise?.fail(ChannelError.ioOnClosedChannel)
            return
        }
        switch unwrapOutboundIn(data) {
        case .head(let response) where response.status.kind != .informational: responding += 1
        case .head, .body: break
        case .end:
            responding -= 1
            unanswered -= 1
        }
        context.write(data, promise: promise)
    }

    func channelInactive(context: ChannelHandlerContext) {
        cancelTimer()
        context.fireChannelInactive()
    }

    // MARK: The clock

    private func begin(_ next: Phase) {
        cancelTimer()
        phase = next
        waited = .zero
        bodyBytes = 0
        if next == .idle {
            waitingSince = nil
        } else if waitingSince != nil {
            waitingSince = .now
        }
    }

    private func settleWaiting() {
        guard let since = waitingSince else { return }
        let now = ContinuousClock.now
        waited += now - since
        waitingSince = now
    }

    private func allowance() -> Duration {
        phase == .head ? deadlines.timeout : deadlines.bodyAllowance(after: bodyBytes)
    }

    private func remaining() -> Duration { allowance() - waited }

    private func arm(in delay: Duration) {
        guard let context else { return }
        let nanoseconds = delay.components.seconds * 1_000_000_000 + delay.components.attoseconds / 1_000_000_000
        timer = context.eventLoop.assumeIsolated().scheduleTask(in: .nanoseconds(max(1_000_000, nanoseconds))) {
            self.timer = nil
            self.check()
        }
    }

    private func cancelTimer() {
        timer?.cancel()
        timer = nil
    }

    private func check() {
        guard phase != .idle, !expired else { return }
        settleWaiting()
        let left = remaining()
        if left > .zero {
            arm(in: left)
        } else {
            expire()
        }
    }

    /// The request is late: a 408 if the connection is answering nothing else, then close.
    private func expire() {
        guard let context else { return }
        let phase = self.phase
        (phase == .head ? timeouts?.head : timeouts?.body)?.increment()
        logger.debug(
            "request deadline passed; closing the connection",
            metadata: [
                "phase": "\(phase.rawValue)", "waited": "\(waited)", "body_bytes": "\(bodyBytes)",
                "peer": "\(context.remoteAddress?.description ?? "unknown")",
            ])
        // Unanswered requests other than this one (pipelined before it) or a response under way: no room for a 408.
        let current = phase == .body ? 1 : 0
        guard responding == 0, unanswered == current else {
            expired = true
            context.close(promise: nil)
            return
        }
        let body = ByteBuffer(
            string:
                #"{"error":{"code":"request_timeout","message":"the request's \#(phase.rawValue) did not arrive in time (see --request-timeout and --min-body-rate); the connection closes"}}"#
        )
        let head = HTTPResponse(
            status: .requestTimeout,
            headerFields: [
                .connection: "close", .contentType: "application/json; charset=utf-8", .cacheControl: "no-store",
                .contentLength: String(body.readableBytes), .server: "reel",
            ])
        expired = true
        context.write(wrapOutboundOut(.head(head)), promise: nil)
        context.write(wrapOutboundOut(.body(body)), promise: nil)
        let channel = context.channel
        context.writeAndFlush(wrapOutboundOut(.end(nil))).whenComplete { _ in channel.close(promise: nil) }
    }
}
