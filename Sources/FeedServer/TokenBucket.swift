/// A token bucket: `capacity` requests at once, refilled at `ratePerSecond`. Pure, so it is tested with a fake clock.
package struct TokenBucket: Sendable, Equatable {
    package let capacity: Double
    package let ratePerSecond: Double
    private(set) var tokens: Double
    private(set) var updated: Double

    package init(capacity: Double, ratePerSecond: Double, now: Double) {
        precondition(capacity >= 1 && ratePerSecond > 0)
        self.capacity = capacity
        self.ratePerSecond = ratePerSecond
        tokens = capacity
        updated = now
    }

    /// Takes one token if there is one. Otherwise returns the seconds until one will be there.
    package mutating func take(now: Double) -> Double? {
        refill(now: now)
        if tokens >= 1 {
            tokens -= 1
            return nil
        }
        return (1 - tokens) / ratePerSecond
    }

    /// A wait from `take` as whole seconds for `Retry-After`, at least 1. A tiny rate (`--rate-limit 1e-300`, or a
    /// token's stored rate) makes the wait larger than any Int, which `Int(_:)` would trap on: it is capped at about
    /// 68 years, as good as never.
    package static func retryAfterSeconds(_ wait: Double) -> Int {
        let cap = Double(Int32.max)
        return wait < cap ? max(1, Int(wait.rounded(.up))) : Int(Int32.max)
    }

    /// Full again: nothing is lost by forgetting this client.
    package func isFull(now: Double) -> Bool {
        tokens + max(0, now - updated) * ratePerSecond >= capacity
    }

    private mutating func refill(now: Double) {
        if now > updated {
            tokens = min(capacity, tokens + (now - updated) * ratePerSecond)
            updated = now
        }
    }
}
