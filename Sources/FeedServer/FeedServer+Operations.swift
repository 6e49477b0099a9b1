internal import Catalog
internal import Foundation
package import Hummingbird
internal import HummingbirdCore
internal import Logging
internal import NIOCore
internal import Prometheus
internal import ServiceLifecycle

/// The operations surface: `/healthz` and `/readyz` (on both listeners: load balancers probe the public one), and
/// `/metrics`, which only the operations listener (`--admin-listen`, loopback by default) serves. None of them names
/// a path, a host or a version: the public port answers them to anyone.
extension FeedServer {
    /// The operations listener's routes: metrics, health and readiness, and nothing a viewer uses.
    package func adminRouter() -> Router<FeedRequestContext> {
        let router = Router(context: FeedRequestContext.self)
        router.add(middleware: LogRequestsMiddleware(.debug))
        router.add(middleware: JSONErrorMiddleware())
        router.get("/metrics") { _, _ in
            var headers = HTTPFields()
            headers[.contentType] = "text/plain; version=0.0.4; charset=utf-8"
            return Response(
                status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: self.metrics.emitToBuffer())))
        }
        addProbeRoutes(to: router)
        return router
    }

    /// The operations listener on `address`, a service beside the public listener on the same event loops, with
    /// the same deadlines and no connection cap; `bound` is told where it listens.
    func adminApplication(
        at address: ListenAddress, http1: HTTP1Channel.Configuration, group: any EventLoopGroup, logger: Logger,
        bound: @escaping @Sendable (ListenAddress) async -> Void
    ) -> some Service {
        Application(
            router: adminRouter(),
            server: HTTPServerBuilder { [requestDeadlines, metricsFactory] responder in
                FeedHTTP1Channel(
                    responder: responder, configuration: http1, fastPath: nil, events: nil,
                    deadlines: requestDeadlines, cap: nil, metrics: metricsFactory)
            },
            configuration: .init(address: .hostname(address.host, port: address.port), serverName: "reel"),
            onServerRunning: { channel in
                await bound(ListenAddress(host: address.host, port: channel.localAddress?.port ?? address.port))
            },
            eventLoopGroupProvider: .shared(group),
            logger: logger)
    }

    /// What `/metrics` answers, as text (for tests in this process).
    var metricsText: String { String(decoding: metrics.emitToBuffer(), as: UTF8.self) }

    /// `/healthz` and `/readyz`.
    func addProbeRoutes(to router: Router<FeedRequestContext>) {
        router.get("/healthz") { _, _ in try await self.health() }
        router.get("/readyz") { _, _ in try await self.readiness() }
    }

    /// Healthy: the catalog answers and nothing beside it (a worker paused on a full disk) is wrong.
    func health() async throws -> Response {
        if let problem = healthProblem() {
            throw APIError(.serviceUnavailable, code: problem.code, message: problem.message)
        }
        try await store.ping()
        return JSONBody.response(["status": "ok"], headers: [.cacheControl: "no-store"])
    }

    /// Ready: every route this server serves can answer. The catalog answers, and with `--feed-order engaging` a
    /// ranking exists (the first is made before the server listens, so a ready server never answers
    /// `ranking_not_ready`). A full disk is health's business: the feed and media still answer then.
    func readiness() async throws -> Response {
        try await store.ping()
        if case .engaging(let catalog) = feedOrder, try await catalog.latestRankingNumber() == nil {
            throw APIError(
                .serviceUnavailable, code: "ranking_not_ready",
                message: "the engaging feed's first ranking is being made; ask again in a second",
                headers: [.retryAfter: "1"])
        }
        return JSONBody.response(["status": "ready"], headers: [.cacheControl: "no-store"])
    }

    /// What must hold before the public listener binds: with `--feed-order engaging`, a ranking to page through.
    /// The roll-up service makes rankings later on; this makes the first one now, so "listening" means ready.
    /// - Throws: `CatalogError` when the catalog cannot read the figures or store the ranking.
    func prepareToServe(logger: Logger) async throws {
        guard case .engaging(let catalog) = feedOrder, try await catalog.latestRankingNumber() == nil else { return }
        let started = ContinuousClock.now
        let outcome = try await EngagingRanker(catalog: catalog).refresh(
            now: Int64(Date().timeIntervalSince1970 * 1000))
        logger.info(
            "engaging feed's first ranking made before listening",
            metadata: ["ranking": "\(outcome.ranking)", "duration": "\(ContinuousClock.now - started)"])
    }
}
