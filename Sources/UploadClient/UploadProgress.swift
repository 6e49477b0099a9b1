/// Upload speed and time left, from (time, bytes) samples over a sliding window. Pure: the caller supplies the clock.
package struct UploadProgress: Sendable, Equatable {
    package let total: Int64
    package private(set) var bytes: Int64
    /// Samples older than this (seconds) no longer count towards the rate.
    package let windowSeconds: Double
    private var samples: [(seconds: Double, bytes: Int64)] = []

    package init(total: Int64, bytes: Int64 = 0, windowSeconds: Double = 5) {
        self.total = total
        self.bytes = bytes
        self.windowSeconds = windowSeconds
    }

    /// Records that `bytes` of `total` are on the server at time `seconds` (any monotonic origin).
    package mutating func record(bytes: Int64, at seconds: Double) {
        if bytes < self.bytes { samples.removeAll() }  // the server's offset went back (a resume): start the rate anew
        self.bytes = bytes
        samples.append((seconds, bytes))
        while samples.count > 2, let first = samples.first, seconds - first.seconds > windowSeconds {
            samples.removeFirst()
        }
    }

    /// Bytes per second over the window; nil until two samples at different times exist.
    package var bytesPerSecond: Double? {
        guard let first = samples.first, let last = samples.last, last.seconds > first.seconds else { return nil }
        return Double(last.bytes - first.bytes) / (last.seconds - first.seconds)
    }

    /// Seconds until the rest is sent at the current rate; 0 when done, nil when the rate is unknown or zero.
    package var etaSeconds: Double? {
        if bytes >= total { return 0 }
        guard let rate = bytesPerSecond, rate > 0 else { return nil }
        return Double(total - bytes) / rate
    }

    /// Percent of the bytes on the server, 0...100.
    package var percent: Double { total > 0 ? min(100, Double(bytes) * 100 / Double(total)) : 100 }

    package static func == (lhs: UploadProgress, rhs: UploadProgress) -> Bool {
        lhs.total == rhs.total && lhs.bytes == rhs.bytes && lhs.windowSeconds == rhs.windowSeconds
            && lhs.samples.elementsEqual(rhs.samples) { $0.seconds == $1.seconds && $0.bytes == $1.bytes }
    }
}
