internal import Foundation
internal import Synchronization

/// Per-client token buckets keyed on the peer's IP address (see RateLimit), shared by the router's middleware and
/// the feed's fast path so a client has one budget whichever path answers it.
final class RateLimiter: Sendable {
    let limit: RateLimit
    let clock: @Sendable () -> Double
    private let buckets = Mutex<[String: TokenBucket]>([:])
    /// Above this many tracked clients, full buckets are forgotten.
    private let pruneThreshold = 10_000

    init(limit: RateLimit, clock: @escaping @Sendable () -> Double = { ProcessInfo.processInfo.systemUptime }) {
        self.limit = limit
        self.clock = clock
    }

    /// Takes a token for `client`: nil when the request may go on, otherwise the seconds until it may.
    func admit(client: String) -> Double? {
        let now = clock()
        return buckets.withLock { buckets in
            if buckets.count > pruneThreshold {
                buckets = buckets.filter { !$0.value.isFull(now: now) }
            }
            var bucket =
                buckets[client] ?? TokenBucket(capacity: limit.burst, ratePerSecond: limit.requestsPerSecond, now: now)
            let wait = bucket.take(now: now)
            buckets[client] = bucket
            return wait
        }
    }
}
