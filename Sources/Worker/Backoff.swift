/// Exponential backoff for transient failures (the design's failCount/backoff): base × 2^(attempt-1), capped.
package struct Backoff: Sendable, Equatable {
    package var baseSeconds: Double
    package var maximumSeconds: Double

    package init(baseSeconds: Double = 2, maximumSeconds: Double = 300) {
        self.baseSeconds = baseSeconds
        self.maximumSeconds = maximumSeconds
    }

    /// The wait after the `attempt`-th failure (1-based).
    package func delay(afterAttempt attempt: Int) -> Double {
        guard attempt >= 1 else { return 0 }
        let exponent = min(attempt - 1, 30)
        return min(maximumSeconds, baseSeconds * Double(1 << exponent))
    }
}
