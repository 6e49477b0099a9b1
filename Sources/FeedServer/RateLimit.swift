/// Per-client token buckets keyed on the peer's IP address, like the design's API gateway: a client over its
/// budget gets a 429 with `Retry-After`. Off unless `reel serve --rate-limit` turns it on.
package struct RateLimit: Sendable, Equatable {
    package var requestsPerSecond: Double
    package var burst: Double

    package init(requestsPerSecond: Double, burst: Double) {
        self.requestsPerSecond = requestsPerSecond
        self.burst = burst
    }
}
