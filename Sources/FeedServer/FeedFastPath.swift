internal import Catalog
internal import CatalogEventLoop
internal import HTTPTypes
internal import Logging
internal import MediaStore
internal import Metrics
internal import NIOCore

/// `GET /v1/feed` answered on the event loop, before Hummingbird's request path. Hummingbird's per-request work (a
/// task, the router, four middlewares) cost more than a kept page itself; this path is a generation read and a copy,
/// or for a page that is not kept, one index seek over stored items (`FeedServer.feedPage`) on the event loop (SQLite)
/// or one round trip on a connection pinned to the event loop (PostgreSQL, `EventLoopFeed`).
///
/// It answers only what it can answer exactly as the router would (200 or 304, the same headers, metrics and debug
/// log line). Anything else — a miss, a parameter it does not read plainly, a rate-limited client, CORS, a catalog
/// error — goes on to the router, which applies the full rules.
///
/// A class: every connection's handlers share one, and a struct holding `FeedServer` copied a few dozen references
/// (retain and release each) per request.
final class FeedFastPath: Sendable {
    let server: FeedServer
    let logger: Logger
    let served: Counter
    let notModified: Counter
    let duration: Timer
    /// How many responses this path gave, so an operator (and a test) can see it working.
    let answered: Counter
    /// How many of those `FeedWireHandler` gave, before the HTTP decoder.
    let answeredOnWire: Counter

    init(server: FeedServer, logger: Logger) {
        self.server = server
        self.logger = logger
        let factory = server.metricsFactory
        // The same series RequestMetricsMiddleware records for this route.
        let route = [("method", "GET"), ("route", "/v1/feed")]
        served = Counter(label: "reel_http_requests_total", dimensions: route + [("status", "200")], factory: factory)
        notModified = Counter(
            label: "reel_http_requests_total", dimensions: route + [("status", "304")], factory: factory)
        duration = Timer(label: "reel_http_request_duration_seconds", dimensions: route, factory: factory)
        answered = Counter(label: "reel_feed_fast_path_responses_total", factory: factory)
        answeredOnWire = Counter(label: "reel_feed_wire_responses_total", factory: factory)
    }

    struct Answer: Sendable {
        let head: HTTPResponse
        let body: ByteBuffer?
    }

    /// A feed request this path can answer once the catalog has answered: for an engine whose pages need a round
    /// trip (PostgreSQL), read off the event loop and written back to it, still without the router.
    struct Query: Sendable {
        let request: HTTPRequest
        let key: FeedPageCache.Key
        let gzip: Bool
        let started: ContinuousClock.Instant
    }

    enum Decision {
        case answer(Answer)
        case query(Query)
        case router
    }

    /// What to do with `request`: answer it now, read its page first (`answer(_:)`), or leave it to the router.
    /// `client` is the peer's address, asked for only when a rate limit needs it (it costs a system call).
    ///
    /// A page that is not kept is read here, on the event loop, when the engine reads in-process (SQLite: an index
    /// seek and about twenty stored items in WAL mode, where readers never wait for the writer). Handing it to another
    /// thread would cost more than the read.
    func decide(_ request: HTTPRequest, client: () -> String?) -> Decision {
        guard request.method == .get, let path = request.path, let key = Self.feedKey(path),
            !Self.asksToClose(request),
            server.corsOrigins.isEmpty || request.headerFields[.origin] == nil
        else { return .router }
        let started = ContinuousClock.now
        if let limiter = server.rateLimiter, limiter.admit(client: client() ?? "unknown") != nil { return .router }
        let gzip = AcceptEncoding.acceptsGzip(request.headerFields[.acceptEncoding])
        let feed = server.store.synchronousFeed
        if let feed, let page = try? server.feedPage(key, gzip: gzip, reading: feed) {
            return .answer(respond(request, key: key, page: page, started: started))
        }
        if feed?.readsPages == true { return .router }  // SQLite could not answer: the router explains why
        return .query(Query(request: request, key: key, gzip: gzip, started: started))
    }

    /// The answer to a `.query` decision, completed on `eventLoop`, or nil (a catalog error, a bad cursor) when the
    /// router must answer it. An engine with an `EventLoopFeed` reads the page without leaving the loop.
    func answer(_ query: Query, on eventLoop: any EventLoop) -> EventLoopFuture<Answer?> {
        guard let feed = (server.store as? any EventLoopFeedSource)?.eventLoopFeed,
            let cursor = try? FeedServer.cursor(query.key)
        else {
            let promise = eventLoop.makePromise(of: Answer?.self)
            promise.completeWithTask { await self.answer(query) }
            return promise.futureResult
        }
        return feed.page(limit: query.key.limit, after: cursor, on: eventLoop).flatMapThrowing { read -> Answer? in
            let page = try self.server.answer(
                read.page, generation: read.generation, key: query.key, gzip: query.gzip)
            return self.respond(query.request, key: query.key, page: page, started: query.started)
        }.recover { [logger] error in
            logger.debug("feed page left to the router", metadata: ["error": "\(error)"])
            return nil
        }
    }

    private func answer(_ query: Query) async -> Answer? {
        guard let page = try? await server.feedPage(query.key, gzip: query.gzip) else { return nil }
        return respond(query.request, key: query.key, page: page, started: query.started)
    }

    private func respond(
        _ request: HTTPRequest, key: FeedPageCache.Key, page: FeedServer.PageAnswer,
        started: ContinuousClock.Instant
    ) -> Answer {
        logRequest(path: request.path ?? "")
        let etag = FeedServer.etag(generation: page.generation, key: key, gzip: page.isGzip)
        var fields = FeedServer.feedHeaders(etag: etag, gzip: page.isGzip)
        defer {
            answered.increment()
            duration.recordInterval(since: started)
        }
        if let ifNoneMatch = request.headerFields[.ifNoneMatch], EntityTag.matches(ifNoneMatch, etag) {
            notModified.increment()
            fields[.date] = HTTPDate.now()
            fields[.server] = "reel"
            return Answer(head: HTTPResponse(status: .notModified, headerFields: fields), body: nil)
        }
        served.increment()
        fields[.contentType] = "application/json; charset=utf-8"
        fields[.contentLength] = String(page.body.readableBytes)
        fields[.date] = HTTPDate.now()
        fields[.server] = "reel"
        return Answer(head: HTTPResponse(status: .ok, headerFields: fields), body: page.body)
    }

    /// The debug line the router's request logging writes, so both paths read the same in a log.
    func logRequest(path: String) {
        if logger.logLevel <= .debug {
            logger.debug(
                "Request",
                metadata: ["hb.request.path": .string(path), "hb.request.method": "GET", "fast_path": "true"])
        }
    }

    /// `Connection: close` (or an upgrade) is the router's to honour; `keep-alive`, which browsers send, is not.
    static func asksToClose(_ request: HTTPRequest) -> Bool {
        guard let value = request.headerFields[.connection]?.lowercased() else { return false }
        return value.contains("close") || value.contains("upgrade")
    }

    /// The page key of `/v1/feed?limit=N&cursor=C` when every parameter is plain (no percent-escapes, no repeats) and
    /// valid; nil sends the request to the router, which decodes, validates and explains.
    static func feedKey(_ path: String) -> FeedPageCache.Key? {
        let utf8 = path.utf8
        let route = "/v1/feed".utf8
        guard utf8.starts(with: route) else { return nil }
        let rest = utf8.dropFirst(route.count)
        guard let first = rest.first else { return FeedPageCache.Key(limit: FeedServer.defaultLimit, cursor: nil) }
        guard first == UInt8(ascii: "?") else { return nil }
        var limit: Int?
        var cursor: String?
        for pair in rest.dropFirst().split(separator: UInt8(ascii: "&"), omittingEmptySubsequences: true) {
            guard !pair.contains(UInt8(ascii: "%")), !pair.contains(UInt8(ascii: "+")) else { return nil }
            let parts = pair.split(separator: UInt8(ascii: "="), maxSplits: 1, omittingEmptySubsequences: false)
            let name = parts[0]
            let value = parts.count > 1 ? parts[1] : pair[pair.endIndex...]
            if name.elementsEqual("limit".utf8) {
                guard limit == nil, !value.isEmpty, value.count <= 2, value.allSatisfy({ (0x30...0x39).contains($0) })
                else { return nil }
                let number = value.reduce(0) { $0 * 10 + Int($1 - 0x30) }
                guard (1...FeedLimits.maximumPageSize).contains(number) else { return nil }
                limit = number
            } else if name.elementsEqual("cursor".utf8) {
                guard cursor == nil, !value.isEmpty else { return nil }
                cursor = String(decoding: value, as: UTF8.self)
            }
        }
        return FeedPageCache.Key(limit: limit ?? FeedServer.defaultLimit, cursor: cursor)
    }
}
