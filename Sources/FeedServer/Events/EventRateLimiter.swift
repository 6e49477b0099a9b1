internal import Synchronization

/// The viewer writes' own budgets, on whatever `--rate-limit` does: one token bucket per session (a batch of events
/// costs one token) and one per address (each batch and each new session cost one token). A batch is taken only when
/// both of its buckets have a token, and then from both, so a refusal costs nothing.
///
/// Each `reel serve` keeps its own buckets. Behind a proxy every client has the proxy's address, and the address
/// budget is then the proxy's.
final class EventRateLimiter: Sendable {
    enum Refusal: Equatable {
        /// Seconds until the bucket has a token again.
        case session(Double)
        case address(Double)
    }

    let limits: ViewerEventLimits
    private let state: Mutex<State>

    private struct State {
        var sessions: [String: TokenBucket] = [:]
        var addresses: [String: TokenBucket] = [:]
        /// Past this many buckets in one table, the full ones (nothing to remember) are dropped. It grows with the
        /// table so that a table of busy clients is not scanned on every request.
        var pruneAt = EventRateLimiter.minimumPruneAt
    }

    static let minimumPruneAt = 10_000

    init(limits: ViewerEventLimits) {
        self.limits = limits
        state = Mutex(State())
    }

    /// Takes a token for a batch of `session`'s from `address`: nil when it may go on.
    func admit(session: String, address: String, now: Double) -> Refusal? {
        state.withLock { state in
            Self.prune(&state, now: now)
            var sessionBucket = state.sessions[session] ?? makeBucket(limits.perSession, now: now)
            var addressBucket = state.addresses[address] ?? makeBucket(limits.perAddress, now: now)
            if let wait = sessionBucket.take(now: now) { return .session(wait) }
            if let wait = addressBucket.take(now: now) { return .address(wait) }
            state.sessions[session] = sessionBucket
            state.addresses[address] = addressBucket
            return nil
        }
    }

    /// Takes a token from `address` alone (a new session): nil when it may go on, else the seconds to wait.
    func admit(address: String, now: Double) -> Double? {
        state.withLock { state in
            Self.prune(&state, now: now)
            var bucket = state.addresses[address] ?? makeBucket(limits.perAddress, now: now)
            if let wait = bucket.take(now: now) { return wait }
            state.addresses[address] = bucket
            return nil
        }
    }

    private func makeBucket(_ limit: RateLimit, now: Double) -> TokenBucket {
        TokenBucket(capacity: limit.burst, ratePerSecond: limit.requestsPerSecond, now: now)
    }

    private static func prune(_ state: inout State, now: Double) {
        guard max(state.sessions.count, state.addresses.count) > state.pruneAt else { return }
        state.sessions = state.sessions.filter { !$0.value.isFull(now: now) }
        state.addresses = state.addresses.filter { !$0.value.isFull(now: now) }
        state.pruneAt = max(minimumPruneAt, 2 * max(state.sessions.count, state.addresses.count))
    }
}
