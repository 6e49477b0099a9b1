/// How much one token may hold open and start (issue 62): unfinished uploads at once, their declared bytes at once,
/// and uploads started per hour. nil is no limit; a token's own nil means the server's default (`overriding`).
package struct UploadQuota: Sendable, Equatable {
    /// Unfinished, unexpired uploads the token may have at once.
    package var concurrentUploads: Int?
    /// The declared lengths of those uploads together, in bytes.
    package var bytesInFlight: Int64?
    /// Uploads the token may start in an hour (a window that opens with the first upload after the last one closed).
    package var uploadsPerHour: Int?

    package init(concurrentUploads: Int? = nil, bytesInFlight: Int64? = nil, uploadsPerHour: Int? = nil) {
        self.concurrentUploads = concurrentUploads
        self.bytesInFlight = bytesInFlight
        self.uploadsPerHour = uploadsPerHour
    }

    /// This quota's limits where it has them, `defaults`' elsewhere: a token's own settings over the server's.
    package func overriding(_ defaults: UploadQuota) -> UploadQuota {
        UploadQuota(
            concurrentUploads: concurrentUploads ?? defaults.concurrentUploads,
            bytesInFlight: bytesInFlight ?? defaults.bytesInFlight,
            uploadsPerHour: uploadsPerHour ?? defaults.uploadsPerHour)
    }

    /// The hour window's length.
    package static let hourMilliseconds: Int64 = 3_600_000
    /// The longest `Retry-After` for the limits on open uploads: one frees when an upload finishes or is terminated,
    /// which the server cannot foresee, so a client asks again within a minute.
    package static let openRetryCapSeconds: Int64 = 60

    /// What a token holds when it starts an upload, as one catalog transaction reads it.
    package struct Usage: Sendable, Equatable {
        package var openUploads: Int
        package var openBytes: Int64
        /// The earliest expiry of those uploads (unix ms), nil when there are none.
        package var earliestExpiry: Int64?
        /// When the token's hour window opened (unix ms), nil before its first upload.
        package var hourStartedAt: Int64?
        /// Uploads started in that window.
        package var hourUploads: Int

        package init(
            openUploads: Int, openBytes: Int64, earliestExpiry: Int64?, hourStartedAt: Int64?, hourUploads: Int
        ) {
            self.openUploads = openUploads
            self.openBytes = openBytes
            self.earliestExpiry = earliestExpiry
            self.hourStartedAt = hourStartedAt
            self.hourUploads = hourUploads
        }

        /// The hour window after one more upload at `now`: a closed window opens anew.
        package func window(afterOneMoreAt now: Int64) -> (startedAt: Int64, uploads: Int) {
            guard let hourStartedAt, now - hourStartedAt < UploadQuota.hourMilliseconds else { return (now, 1) }
            return (hourStartedAt, hourUploads + 1)
        }
    }

    /// Why a token may not start an upload now.
    package struct Refusal: Sendable, Equatable, Error {
        package enum Limit: String, Sendable {
            case concurrentUploads = "concurrent_uploads"
            case bytesInFlight = "bytes_in_flight"
            case uploadsPerHour = "uploads_per_hour"
        }

        package var limit: Limit
        /// The limit's value.
        package var allowed: Int64
        /// What the token holds against it: open uploads, bytes in flight (with this upload), uploads this hour.
        package var used: Int64
        /// When asking again may succeed.
        package var retryAfterSeconds: Int64
        /// False when this upload alone is over the bytes-in-flight limit: waiting cannot help.
        package var canEverFit: Bool = true
    }

    /// The refusal of an upload of `length` bytes at `now` given `usage`, or nil when it is within every limit.
    /// Checked in order: open uploads, bytes in flight, uploads this hour.
    package func refusal(forLength length: Int64, usage: Usage, now: Int64) -> Refusal? {
        let openRetry =
            usage.earliestExpiry.map { expiry in
                min(Self.openRetryCapSeconds, max(1, (expiry - now + 999) / 1000))
            } ?? 1
        if let concurrentUploads, usage.openUploads >= concurrentUploads {
            // A limit of 0 stops the token's uploads until someone raises it: no sooner than an hour, then.
            return Refusal(
                limit: .concurrentUploads, allowed: Int64(concurrentUploads), used: Int64(usage.openUploads),
                retryAfterSeconds: concurrentUploads == 0 ? Self.hourMilliseconds / 1000 : openRetry)
        }
        if let bytesInFlight, usage.openBytes + length > bytesInFlight {
            return Refusal(
                limit: .bytesInFlight, allowed: bytesInFlight, used: usage.openBytes + length,
                retryAfterSeconds: openRetry, canEverFit: length <= bytesInFlight)
        }
        if let uploadsPerHour, let started = usage.hourStartedAt, now - started < Self.hourMilliseconds,
            usage.hourUploads >= uploadsPerHour
        {
            return Refusal(
                limit: .uploadsPerHour, allowed: Int64(uploadsPerHour), used: Int64(usage.hourUploads),
                retryAfterSeconds: max(1, (started + Self.hourMilliseconds - now + 999) / 1000))
        }
        if let uploadsPerHour, uploadsPerHour <= 0 {
            return Refusal(
                limit: .uploadsPerHour, allowed: 0, used: 0, retryAfterSeconds: Self.hourMilliseconds / 1000)
        }
        return nil
    }
}
