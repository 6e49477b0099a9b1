package import Catalog
internal import Foundation
package import Hummingbird
internal import HummingbirdCore
package import Logging
internal import MediaModel
package import Metrics
internal import NIOCore
internal import NIOPosix
package import Prometheus
package import ServiceLifecycle

/// The HTTP face of the catalog: the web page, the JSON feed, single videos, job status, the library's media files, health
/// and metrics. Built as a router so tests drive it without a socket.
package struct FeedServer: Sendable {
    /// Only the catalog's roles the routes read: the feed, and a job's status for a client polling its upload.
    package let store: any FeedReading & JobStatusReading
    /// What `/media/` serves: the library's store (a directory or object storage); nil serves nothing.
    package let media: MediaServing?
    package let rateLimit: RateLimit?
    /// One budget per client for the router and the feed's fast path.
    let rateLimiter: RateLimiter?
    package let metrics: PrometheusCollectorRegistry
    /// Something beside the catalog that makes this server unhealthy (the worker paused on a full disk), or nil.
    package var healthProblem: @Sendable () -> HealthProblem? = { nil }
    /// The feed's web page at `/`.
    package var webClient = WebClient()
    /// Uploads over HTTP (`/v1/uploads`); nil serves none.
    package var uploads: UploadDesk?
    /// `DELETE /v1/videos/{id}` and `PATCH /v1/videos/{id}`, with `uploads`' tokens; nil serves neither.
    package var deleter: PostDeleter?
    /// Signs private posts' media URLs (`--playback-key-file`; a random key of this process by default).
    package var signer = PlaybackSigner(keys: .random()) {
        didSet { accessGate = Self.gate(store, signer: signer) }
    }
    /// Checks `/media/` requests against posts' visibility; nil when the catalog cannot tell it.
    private(set) var accessGate: MediaAccessGate?
    /// `POST /v1/events`, when the catalog can take viewers' events.
    package var viewerEvents: ViewerEventIngest?
    /// Who may send viewer events: session tokens, budgets, published videos (a random key unless `reel serve` sets
    /// the shared one).
    package var eventGate: ViewerEventGate
    /// `--feed-order`: newest first (the default), or engaging (stored rankings, without the fast path).
    package var feedOrder = FeedOrder.recent
    /// The engaging order's rankings read so far.
    let rankings = RankingCache()
    /// `--cors-origin`: origins whose pages may use this API (`*` for any).
    package var corsOrigins: [String] = []
    /// A connection that sends nothing for this long is closed, so a stalled client cannot hold a request open.
    package var idleTimeoutSeconds = 30.0
    /// `--request-timeout` and `--min-body-rate`: how fast a request must arrive, on both listeners.
    package var requestDeadlines = RequestDeadlines.default
    /// `--max-connections`: the public listener's cap on open connections (nil: none).
    package var maxConnections: Int? = 1024
    /// `--admin-listen`: where `/metrics` (with `/healthz` and `/readyz`) is served apart from viewers; nil serves it
    /// nowhere. The public listener never serves `/metrics`.
    package var adminAddress: ListenAddress?
    package static let defaultLimit = 10
    /// Finished bodies of the hot feed pages, valid for one catalog generation (and this media base).
    private(set) var pageCache = FeedPageCache()
    /// gzip for feed pages and playlists.
    let gzipEncoder = GzipEncoder()
    /// `--media-base-url`: where the items' URLs point (`/media/`, this server's route, by default).
    package var mediaBaseURL = MediaBaseURL.default {
        didSet {
            renderedItems = RenderedItems(mediaBase: mediaBaseURL)
            pageCache = FeedPageCache()
        }
    }
    /// Feed items rendered from the catalog's records with `mediaBaseURL`.
    private(set) var renderedItems = RenderedItems(mediaBase: .default)

    package init(
        store: any FeedReading & JobStatusReading, media: MediaServing?, rateLimit: RateLimit? = nil,
        metrics: PrometheusCollectorRegistry = PrometheusCollectorRegistry()
    ) {
        self.store = store
        self.media = media
        self.rateLimit = rateLimit
        rateLimiter = rateLimit.map { RateLimiter(limit: $0) }
        self.metrics = metrics
        accessGate = Self.gate(store, signer: signer)
        eventGate = ViewerEventGate(keys: .random(), metrics: PrometheusMetricsFactory(registry: metrics))
    }

    /// The gate for a catalog that can tell posts' visibility (every engine can; a test's stand-in may not).
    static func gate(_ store: any FeedReading & JobStatusReading, signer: PlaybackSigner) -> MediaAccessGate? {
        guard let access = store as? any PostAccess else { return nil }
        return MediaAccessGate(access: access, signer: signer) {
            if let feed = store.synchronousFeed, let generation = try? feed.generation() { return generation }
            return try? await store.generation()
        }
    }

    /// Metrics recorded here show on `/metrics` (the worker's, when it runs inside the server).
    package var metricsFactory: any MetricsFactory { PrometheusMetricsFactory(registry: metrics) }

    package func router() -> Router<FeedRequestContext> {
        let router = Router(context: FeedRequestContext.self)
        if !corsOrigins.isEmpty { router.add(middleware: CORSMiddleware(origins: corsOrigins)) }
        router.add(middleware: LogRequestsMiddleware(.debug))  // every request, with --log-level debug
        router.add(middleware: RequestMetricsMiddleware(factory: metricsFactory))
        router.add(middleware: JSONErrorMiddleware())
        router.add(middleware: ExpectContinueMiddleware())
        if let rateLimiter { router.add(middleware: RateLimitMiddleware(limiter: rateLimiter)) }

        for (path, asset) in [
            ("/", webClient.page), ("/web/app.js", webClient.script), ("/web/events.js", webClient.eventsScript),
            ("/web/prefetch.js", webClient.prefetchScript),
            ("/web/upload.js", webClient.uploadScript), ("/stats", webClient.statsPage),
            ("/web/stats.js", webClient.statsScript), ("/web/app.css", webClient.style),
            ("/web/icon.svg", webClient.icon), ("/favicon.ico", webClient.icon),
        ] {
            router.get(RouterPath(path)) { request, _ in self.webClient.response(asset, to: request) }
            router.head(RouterPath(path)) { request, _ in self.webClient.response(asset, to: request) }
        }
        if let uploads { addUploadRoutes(to: router, desk: uploads) }
        if let uploads, let deleter {
            addDeletionRoutes(to: router, desk: uploads, deleter: deleter)
            addVisibilityRoutes(to: router, desk: uploads, deleter: deleter)
        }
        if let viewerEvents { addEventRoutes(to: router, ingest: viewerEvents) }
        router.get("/v1/feed") { request, _ in try await self.feed(request) }
        router.get("/v1/videos/:id") { request, context in
            try await self.video(id: context.parameters.require("id"), request: request)
        }
        router.get("/v1/jobs/:id") { _, context in try await self.job(id: context.parameters.require("id")) }
        router.get("/media/**") { request, context in try await self.media(request, context: context) }
        router.head("/media/**") { request, context in
            let response = try await self.media(request, context: context)
            return Response(status: response.status, headers: response.headers)
        }
        addProbeRoutes(to: router)
        addOpenAPIRoutes(to: router)
        return router
    }

    /// An application listening on `host:port`, and on `adminAddress` when set; `services` run beside it and stop
    /// with it (the worker). The public listener binds only once `prepareToServe` has made what its routes need, and
    /// `onListening` is called once every listener is bound.
    /// Handlers run on Swift's concurrency pool, so the socket I/O needs few event-loop threads: on 2 cores one
    /// thread halves the p99 latency at the same throughput (measured with wrk, 16 connections).
    package func application(
        host: String, port: Int, ioThreads: Int = 1, services: [any Service] = [], logger: Logger,
        onListening: @escaping @Sendable (Listening) async -> Void = { _ in }
    ) -> some ApplicationProtocol {
        let http1 = HTTP1Channel.Configuration(
            additionalChannelHandlers: [LargeReadsHandler(), ExpectContinueHandler()],
            idleTimeout: .milliseconds(Int64(idleTimeoutSeconds * 1000)))
        // The fast path answers the newest-first feed only; the engaging feed goes through the router.
        let fastPath: FeedFastPath? =
            if case .recent = feedOrder { FeedFastPath(server: self, logger: logger) } else { nil }
        let events = viewerEvents.map { EventsFastPath(server: self, ingest: $0, logger: logger) }
        let group = MultiThreadedEventLoopGroup(numberOfThreads: ioThreads)
        let reports = ListenerReports(expectsAdmin: adminAddress != nil)
        var services = services
        if let adminAddress {
            services.append(
                adminApplication(at: adminAddress, http1: http1, group: group, logger: logger) { bound in
                    if let all = reports.admin(bound) { await onListening(all) }
                })
        }
        let cap = maxConnections.map {
            ConnectionCap(maximum: $0, logger: logger, factory: metricsFactory)
        }
        var application = Application(
            router: router(),
            server: HTTPServerBuilder { [requestDeadlines, metricsFactory] responder in
                FeedHTTP1Channel(
                    responder: responder, configuration: http1, fastPath: fastPath, events: events,
                    deadlines: requestDeadlines, cap: cap, metrics: metricsFactory)
            },
            configuration: .init(address: .hostname(host, port: port), serverName: "reel"),
            services: services,
            onServerRunning: { channel in
                let bound = ListenAddress(host: host, port: channel.localAddress?.port ?? port)
                if let all = reports.server(bound) { await onListening(all) }
            },
            eventLoopGroupProvider: .shared(group),
            logger: logger
        )
        application.beforeServerStarts { try await self.prepareToServe(logger: logger) }
        return application
    }

    /// Serves until SIGTERM or SIGINT, then lets in-flight requests finish and returns.
    package func run(
        host: String, port: Int, ioThreads: Int = 1, services: [any Service] = [], logger: Logger,
        onListening: @escaping @Sendable (Listening) async -> Void = { _ in }
    ) async throws {
        try await application(
            host: host, port: port, ioThreads: ioThreads, services: services, logger: logger,
            onListening: onListening
        ).runService()
    }

    // MARK: Routes

    /// One video. A private post's answers only its uploader's or an admin token, with signed media URLs.
    func video(id: String, request: Request) async throws -> Response {
        var authorized = false
        // A token that is not good is no reason to refuse a public post: it only cannot see a private one.
        if request.headers[.authorization] != nil, let desk = uploads, let deleter,
            let token = try? await desk.authenticate(request.headers[.authorization])
        {
            authorized = (try? await requireOwnership(of: id, token: token, deleter: deleter)) != nil
        }
        return try await videoAnswer(id: id, authorized: authorized, request: request)
    }

    func job(id: String) async throws -> Response {
        guard let job = try await store.job(id: id) else { throw APIError.notFound("job \"\(id.prefix(64))\"") }
        var headers: HTTPFields = [.cacheControl: "no-store"]
        if job.state == .queued || job.state == .processing { headers[.retryAfter] = "1" }  // how often to poll
        // A published video's loudness (issue 61) comes from its catalog row: one read, only once it is published.
        var loudness: AudioLoudness?
        if job.kind == .video, job.state == .published, let media = job.mediaID {
            loudness = try await store.video(id: media)?.loudness
        }
        return JSONBody.response(JobBody(job, loudness: loudness), headers: headers)
    }
}
