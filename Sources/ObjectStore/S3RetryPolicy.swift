/// When the client tries a request again: 500, 502, 503, 504, S3's `SlowDown`, `InternalError`, `RequestTimeout`
/// and `ConditionalRequestConflict`, and connection errors, up to `maxAttempts` in all, waiting between half and all
/// of `base × 2^(retry-1)` (capped) between them: random, so clients that failed together do not return together,
/// and never less than half, so the retries always span a known time (7.9 s at least with `standard`). Pure.
package struct S3RetryPolicy: Sendable, Equatable {
    package var maxAttempts: Int
    package var baseSeconds: Double
    package var capSeconds: Double

    /// Seven attempts over 7.9 to 15.8 s: a store restarting (SeaweedFS takes about two seconds) is ridden out.
    package static let standard = S3RetryPolicy(maxAttempts: 7, baseSeconds: 0.25, capSeconds: 8)
    /// One attempt, for probes whose caller decides.
    package static let none = S3RetryPolicy(maxAttempts: 1, baseSeconds: 0, capSeconds: 0)

    package init(maxAttempts: Int, baseSeconds: Double, capSeconds: Double) {
        self.maxAttempts = max(1, maxAttempts)
        self.baseSeconds = baseSeconds
        self.capSeconds = capSeconds
    }

    /// The longest wait before retry number `retry` (1 for the first retry).
    package func ceiling(beforeRetry retry: Int) -> Double {
        guard retry >= 1 else { return 0 }
        return min(capSeconds, baseSeconds * Double(1 << min(retry - 1, 30)))
    }

    /// The wait before retry number `retry`: half the ceiling plus `fraction` (0..<1, random in use) of the other half.
    package func delay(beforeRetry retry: Int, fraction: Double) -> Double {
        ceiling(beforeRetry: retry) * (0.5 + 0.5 * min(max(fraction, 0), 1))
    }

    /// Whether an answer with this status and S3 error code is worth another attempt.
    package static func isRetryable(status: Int, code: String?) -> Bool {
        if [500, 502, 503, 504].contains(status) { return true }
        switch code {
        case "SlowDown", "InternalError", "RequestTimeout", "ServiceUnavailable", "ConditionalRequestConflict":
            return true
        default:
            return false
        }
    }
}
