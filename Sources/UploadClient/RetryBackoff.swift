package import Foundation

/// How long to wait before another attempt: 0.5 s doubling up to a cap, a limited number of attempts in a row,
/// and a server's `Retry-After` taken as given (bounded by `maxRetryAfterSeconds`).
package struct RetryBackoff: Sendable, Equatable {
    package var initialSeconds: Double
    package var capSeconds: Double
    /// Failed attempts in a row before giving up; any progress starts the count again.
    package var maxAttempts: Int
    /// A `Retry-After` longer than this is cut to it, so a misconfigured server cannot park the client for hours.
    package var maxRetryAfterSeconds: Double

    package init(
        initialSeconds: Double = 0.5, capSeconds: Double = 16, maxAttempts: Int = 8, maxRetryAfterSeconds: Double = 300
    ) {
        self.initialSeconds = initialSeconds
        self.capSeconds = capSeconds
        self.maxAttempts = maxAttempts
        self.maxRetryAfterSeconds = maxRetryAfterSeconds
    }

    /// The wait before retry number `attempt` (1 for the first retry): 0.5, 1, 2, 4, ... capped.
    package func delay(forAttempt attempt: Int, retryAfter: Double? = nil) -> Double {
        if let retryAfter { return min(max(retryAfter, 0), maxRetryAfterSeconds) }
        let exponent = Double(max(attempt - 1, 0))
        return min(initialSeconds * pow(2, exponent), capSeconds)
    }

    /// Parses a `Retry-After` value: delay-seconds, or an HTTP date measured from `now`.
    package static func parseRetryAfter(_ value: String?, now: Date = Date()) -> Double? {
        guard let value = value?.trimmingCharacters(in: .whitespaces), !value.isEmpty else { return nil }
        if let seconds = Double(value), seconds.isFinite, seconds >= 0 { return seconds }
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss zzz"
        guard let date = formatter.date(from: value) else { return nil }
        return max(date.timeIntervalSince(now), 0)
    }
}
