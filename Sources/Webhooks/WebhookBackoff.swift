package import Catalog

/// When a failed delivery is tried again: exponential back-off from `first`, doubling to at most `longest`, each delay
/// drawn at random from its upper half (so receivers that came back together are not hit together), until `window`
/// after the event; then it is abandoned. With the defaults (5 s, 1 h, 24 h) an event is tried 30 to 60 times.
package struct WebhookBackoff: Sendable, Equatable {
    package var first: Duration
    package var longest: Duration
    package var window: Duration

    package init(first: Duration = .seconds(5), longest: Duration = .seconds(3600), window: Duration = .seconds(86_400))
    {
        self.first = first
        self.longest = longest
        self.window = window
    }

    /// The longest wait after failed attempt `attempt` (from 1), in milliseconds.
    package func ceiling(afterAttempt attempt: Int) -> Int64 {
        let longest = Self.milliseconds(self.longest)
        var delay = min(Self.milliseconds(first), longest)
        for _ in 1..<max(attempt, 1) where delay < longest { delay = delay > longest / 2 ? longest : delay * 2 }
        return delay
    }

    /// What follows failed attempt `attempt` of an event created at `createdAt`, failing at `now`; `unit` in 0..<1
    /// places the delay within its upper half.
    package func outcome(
        afterAttempt attempt: Int, createdAt: Int64, now: Int64, unit: Double, error: String
    ) -> WebhookDelivery.Outcome {
        guard now - createdAt < Self.milliseconds(window) else { return .abandoned(error: error) }
        let ceiling = ceiling(afterAttempt: attempt)
        let delay = ceiling / 2 + Int64((Double(ceiling - ceiling / 2) * min(max(unit, 0), 0.999_999)).rounded(.down))
        return .retry(at: now + max(delay, 1), error: error)
    }

    static func milliseconds(_ duration: Duration) -> Int64 {
        duration.components.seconds * 1000 + duration.components.attoseconds / 1_000_000_000_000_000
    }
}
