package import Hummingbird

/// Answers 429 `rate_limited` with `Retry-After` when a client is over its budget (see RateLimiter).
struct RateLimitMiddleware: RouterMiddleware {
    typealias Context = FeedRequestContext
    let limiter: RateLimiter

    func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        if let wait = limiter.admit(client: context.remoteAddress?.ipAddress ?? "unknown") {
            let seconds = TokenBucket.retryAfterSeconds(wait)
            let limit = limiter.limit
            throw APIError(
                .tooManyRequests, code: "rate_limited",
                message:
                    "more than \(limit.requestsPerSecond) requests per second (burst \(Int(limit.burst))) from this client; retry in \(seconds) s",
                headers: [.retryAfter: String(seconds)])
        }
        return try await next(request, context)
    }
}
