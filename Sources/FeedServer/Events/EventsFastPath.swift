internal import Catalog
internal import HTTPTypes
internal import Logging
internal import Metrics
internal import NIOCore
internal import ViewerAnalytics

/// `POST /v1/events` taken before Hummingbird's request path, as `FeedFastPath` takes the feed: the body is read and
/// checked on the event loop and its events go straight to the group commit, which answers 204 on the loop. The
/// router's path (a task per request, four middlewares, a response writer) cost 0.32 ms of CPU for an empty batch,
/// this path 0.18 ms (docs/quirks.md, "Group commit").
///
/// It answers only 204, and only for a batch that `ViewerEventGate` lets through: a valid session token, JSON, within
/// the budgets, every video published. A batch that is refused for any reason, or by a full queue, or not stored
/// (nothing of it is, then) goes on to the router whole, which checks it again, answers, and counts the refusal.
struct EventsFastPath: Sendable {
    let server: FeedServer
    let ingest: ViewerEventIngest
    let logger: Logger
    private let stored: Counter
    private let duration: Timer
    /// How many responses this path gave, so an operator (and a test) can see it working.
    private let answered: Counter

    init(server: FeedServer, ingest: ViewerEventIngest, logger: Logger) {
        self.server = server
        self.ingest = ingest
        self.logger = logger
        let factory = server.metricsFactory
        // The same series RequestMetricsMiddleware records for this route.
        let route = [("method", "POST"), ("route", "/v1/events")]
        stored = Counter(label: "reel_http_requests_total", dimensions: route + [("status", "204")], factory: factory)
        duration = Timer(label: "reel_http_request_duration_seconds", dimensions: route, factory: factory)
        answered = Counter(label: "reel_events_fast_path_responses_total", factory: factory)
    }

    /// Whether this path may take `request`: a plain `POST /v1/events` with a session token and JSON (the token is
    /// verified with the body), no CORS to answer, and within the rate limit. `client` is the peer's address, asked
    /// for only when a rate limit needs it (it costs a system call).
    func takes(_ request: HTTPRequest, client: () -> String?) -> Bool {
        guard request.method == .post, request.path == "/v1/events", !FeedFastPath.asksToClose(request),
            server.corsOrigins.isEmpty || request.headerFields[.origin] == nil,
            ViewerEventGate.headLooksRight(
                token: request.headerFields[.reelSession], contentType: request.headerFields[.contentType])
        else { return false }
        if let limiter = server.rateLimiter, limiter.admit(client: client() ?? "unknown") != nil { return false }
        return true
    }

    /// The 204 once `body`'s events are committed, completed on `eventLoop`; nil when the router must answer.
    /// The session's and `client`'s budgets are taken only once everything else about the batch is known to be
    /// right, so a batch the router answers is charged there, once (unless the commit itself fails).
    func answer(
        _ request: HTTPRequest, body: ByteBuffer, client: String?, started: ContinuousClock.Instant,
        on eventLoop: any EventLoop
    ) -> EventLoopFuture<FeedFastPath.Answer?> {
        let gate = server.eventGate
        let session: ViewerSessionToken
        let events: [ViewerEvent]
        do throws(EventRejection) {
            session = try gate.session(
                token: request.headerFields[.reelSession], contentType: request.headerFields[.contentType])
            events = try body.withUnsafeReadableBytes { bytes throws(EventRejection) in
                try gate.events(Array(bytes), session: session)
            }
        } catch {
            return eventLoop.makeSucceededFuture(nil)
        }
        // On the loop when the catalog generation is known in-process and every video is already known published.
        let generation = server.store.synchronousFeed.flatMap { try? $0.generation() }
        let known = generation.map { gate.publishedAnswer(events, generation: $0) }
        if case .unpublished = known { return eventLoop.makeSucceededFuture(nil) }
        if known == .allPublished {
            do throws(EventRejection) {
                try gate.admit(session, address: client)
            } catch {
                return eventLoop.makeSucceededFuture(nil)
            }
        }
        let received = FeedServer.received(events)
        let promise = eventLoop.makePromise(of: FeedFastPath.Answer?.self)
        promise.completeWithTask { [server, ingest, logger] in
            do {
                if known != .allPublished {
                    try await gate.requirePublished(events, store: server.store)
                    try gate.admit(session, address: client)
                }
                try await ingest.commit(received)
            } catch {
                logger.debug("events left to the router", metadata: ["error": "\(error)"])
                return nil
            }
            return respond(started: started)
        }
        return promise.futureResult
    }

    private func respond(started: ContinuousClock.Instant) -> FeedFastPath.Answer {
        if logger.logLevel <= .debug {
            logger.debug(
                "Request",
                metadata: ["hb.request.path": "/v1/events", "hb.request.method": "POST", "fast_path": "true"])
        }
        stored.increment()
        answered.increment()
        duration.recordInterval(since: started)
        var fields = HTTPFields()
        fields[.cacheControl] = "no-store"
        fields[.date] = HTTPDate.now()
        fields[.server] = "reel"
        return FeedFastPath.Answer(head: HTTPResponse(status: .noContent, headerFields: fields), body: nil)
    }
}
