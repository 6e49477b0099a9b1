public import Hummingbird
internal import Synchronization
internal import Foundation

/// Per-client token buckets keyed on the peer's IP address (see RateLimit).
final class RateLimitMiddleware: RouterMiddleware, Sendable {
    typealias Context = FeedRequestContext
    let limit: RateLimit
    let clock: @Sendable () -> Double
    private let buckets = Mutex<[String: TokenBucket]>([:])
    /// Above this many tracked clients, full buckets are forgotten.
    private let pruneThreshold = 10_000

    init(limit: RateLimit, clock: @escaping @Sendable () -> Double = { ProcessInfo.processInfo.systemUptime }) {
        self.limit = limit
        self.clock = clock
    }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let client = context.remoteAddress?.ipAddress ?? "unknown"
        let now = clock()
        let wait: Double? = buckets.withLock { buckets in
            if buckets.count > pruneThreshold {
                buckets = buckets.filter { !$0.value.isFull(now: now) }
            }
            var bucket = buckets[client] ?? TokenBucket(capacity: limit.burst, ratePerSecond: limit.requestsPerSecond, now: now)
            let wait = bucket.take(now: now)
            buckets[client] = bucket
            return wait
        }
        if let wait {
            let seconds = max(1, Int(wait.rounded(.up)))
            throw APIError(.tooManyRequests, code: "rate_limited",
                           message: "more than \(limit.requestsPerSecond) requests per second (burst \(Int(limit.burst))) from this client; retry in \(seconds) s",
                           headers: [.retryAfter: String(seconds)])
        }
        return try await next(request, context)
    }
}
