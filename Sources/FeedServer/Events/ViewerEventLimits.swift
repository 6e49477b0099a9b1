/// The viewer writes' budgets (`EventRateLimiter`): `reel serve --events-session-rate/--events-session-burst` and
/// `--events-address-rate/--events-address-burst`. They are on whatever `--rate-limit` says.
package struct ViewerEventLimits: Sendable, Equatable {
    /// Batches of events per session.
    package var perSession: RateLimit
    /// Batches of events and new sessions per address (an IPv6 address's /64).
    package var perAddress: RateLimit

    package init(perSession: RateLimit, perAddress: RateLimit) {
        self.perSession = perSession
        self.perAddress = perAddress
    }

    /// A tab sends a batch every 10 s, and at most 20 back to back (its 2,000 queued events after being offline).
    /// An address with 200 such tabs behind it (an office, a school) sends 20 batches a second.
    package static let standard = ViewerEventLimits(
        perSession: RateLimit(requestsPerSecond: 1, burst: 20),
        perAddress: RateLimit(requestsPerSecond: 20, burst: 200))
}
