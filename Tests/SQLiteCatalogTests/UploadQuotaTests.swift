import Catalog
import SQLiteCatalog
import Testing

/// `UploadQuota`'s decision alone, without a catalog: a token's own limits over the server's, and the order and
/// `Retry-After` of the refusals.
@Suite(.timeLimit(.minutes(1))) struct UploadQuotaTests {
    static let idle = UploadQuota.Usage(
        openUploads: 0, openBytes: 0, earliestExpiry: nil, hourStartedAt: nil, hourUploads: 0)

    @Test func aTokensOwnLimitsWinOverTheServersAndNilFallsBackToThem() {
        let server = UploadQuota(concurrentUploads: 10, bytesInFlight: 500, uploadsPerHour: 100)
        let own = UploadQuota(concurrentUploads: 2, bytesInFlight: nil, uploadsPerHour: 0)
        #expect(
            own.overriding(server) == UploadQuota(concurrentUploads: 2, bytesInFlight: 500, uploadsPerHour: 0))
        #expect(UploadQuota().overriding(server) == server)
    }

    @Test func openUploadsAreCheckedFirstAndAskAgainBeforeTheEarliestExpiryOrAMinute() {
        var usage = Self.idle
        usage.openUploads = 3
        usage.openBytes = 900
        usage.earliestExpiry = 10_500
        let quota = UploadQuota(concurrentUploads: 3, bytesInFlight: 1_000, uploadsPerHour: 1)
        let refusal = quota.refusal(forLength: 500, usage: usage, now: 10_000)
        #expect(refusal?.limit == .concurrentUploads && refusal?.retryAfterSeconds == 1)
        usage.earliestExpiry = 10_000_000
        #expect(quota.refusal(forLength: 500, usage: usage, now: 10_000)?.retryAfterSeconds == 60)
    }

    @Test func aZeroLimitStopsTheTokenForAnHourAtATime() {
        let stopped = UploadQuota(concurrentUploads: 0)
        #expect(stopped.refusal(forLength: 1, usage: Self.idle, now: 0)?.retryAfterSeconds == 3_600)
        let none = UploadQuota(uploadsPerHour: 0)
        #expect(none.refusal(forLength: 1, usage: Self.idle, now: 0)?.limit == .uploadsPerHour)
        #expect(UploadQuota().refusal(forLength: 1 << 40, usage: Self.idle, now: 0) == nil, "no limits, no refusal")
    }
}
