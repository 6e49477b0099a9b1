import Foundation
import TestTraits
import Testing
import UploadClient

@Suite(.offThePool, .timeLimit(.minutes(5))) struct UploadProgressTests {
    @Test func rateAndETAComeFromTheWindow() {
        var progress = UploadProgress(total: 10_000_000, windowSeconds: 5)
        #expect(progress.bytesPerSecond == nil)
        #expect(progress.etaSeconds == nil)
        progress.record(bytes: 0, at: 100)
        progress.record(bytes: 2_000_000, at: 101)
        #expect(progress.bytesPerSecond == 2_000_000)
        #expect(progress.etaSeconds == 4)
        #expect(progress.percent == 20)
        progress.record(bytes: 4_000_000, at: 102)
        progress.record(bytes: 5_000_000, at: 110)  // the first samples fall out of the 5 s window
        #expect(progress.bytesPerSecond == 125_000)
        progress.record(bytes: 10_000_000, at: 111)
        #expect(progress.etaSeconds == 0)
        #expect(progress.percent == 100)
    }

    @Test func aResumeToALowerOffsetStartsTheRateAnew() {
        var progress = UploadProgress(total: 100)
        progress.record(bytes: 50, at: 0)
        progress.record(bytes: 60, at: 1)
        progress.record(bytes: 40, at: 2)
        #expect(progress.bytesPerSecond == nil)
        progress.record(bytes: 70, at: 3)
        #expect(progress.bytesPerSecond == 30)
        #expect(progress.etaSeconds == 1)
    }
}

@Suite(.offThePool, .timeLimit(.minutes(5))) struct RetryBackoffTests {
    @Test func delaysDoubleFromHalfASecondUpToTheCap() {
        let backoff = RetryBackoff(initialSeconds: 0.5, capSeconds: 4, maxAttempts: 8)
        #expect((1...6).map { backoff.delay(forAttempt: $0) } == [0.5, 1, 2, 4, 4, 4])
    }

    @Test func retryAfterIsTakenAsGivenWithinItsBound() {
        let backoff = RetryBackoff(maxRetryAfterSeconds: 60)
        #expect(backoff.delay(forAttempt: 5, retryAfter: 3) == 3)
        #expect(backoff.delay(forAttempt: 1, retryAfter: 3600) == 60)
    }

    @Test func parsesSecondsAndHTTPDates() {
        #expect(RetryBackoff.parseRetryAfter("7") == 7)
        #expect(RetryBackoff.parseRetryAfter(nil) == nil)
        #expect(RetryBackoff.parseRetryAfter("soon") == nil)
        let now = Date(timeIntervalSince1970: 1_445_412_480)  // Wed, 21 Oct 2015 07:28:00 GMT
        #expect(RetryBackoff.parseRetryAfter("Wed, 21 Oct 2015 07:28:30 GMT", now: now) == 30)
    }
}
