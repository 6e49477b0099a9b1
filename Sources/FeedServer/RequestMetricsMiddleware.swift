internal import Foundation
package import Hummingbird
internal import Metrics

/// Request counts and latency histograms per route and status, recorded into the server's own Prometheus
/// registry (no global bootstrap, so tests and several servers in one process do not share counters).
struct RequestMetricsMiddleware<Context: RequestContext>: RouterMiddleware {
    let factory: any MetricsFactory

    func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        let started = ContinuousClock.now
        var status = 500
        defer {
            // The matched route template, not the raw path, so ids and media paths do not explode the label set.
            let route = context.endpointPath ?? "unmatched"
            let dimensions = [("method", request.method.rawValue), ("route", route), ("status", String(status))]
            Counter(label: "reel_http_requests_total", dimensions: dimensions, factory: factory).increment()
            Timer(
                label: "reel_http_request_duration_seconds",
                dimensions: [("method", request.method.rawValue), ("route", route)],
                factory: factory
            ).recordInterval(since: started)
        }
        do {
            let response = try await next(request, context)
            status = response.status.code
            return response
        } catch let error as any HTTPResponseError {
            status = error.status.code
            throw error
        }
    }
}

extension Timer {
    func recordInterval(since start: ContinuousClock.Instant) {
        let elapsed = ContinuousClock.now - start
        let (seconds, attoseconds) = elapsed.components
        recordNanoseconds(seconds * 1_000_000_000 + attoseconds / 1_000_000_000)
    }
}
