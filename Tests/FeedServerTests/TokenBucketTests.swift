import FeedServer
import Testing

@Suite(.timeLimit(.minutes(5))) struct TokenBucketTests {
    @Test func burstThenRefillAtTheRate() {
        var bucket = TokenBucket(capacity: 3, ratePerSecond: 2, now: 0)
        #expect(bucket.take(now: 0) == nil)
        #expect(bucket.take(now: 0) == nil)
        #expect(bucket.take(now: 0) == nil)
        #expect(bucket.take(now: 0) == 0.5)
        #expect(bucket.take(now: 0.25) == 0.25)
        #expect(bucket.take(now: 0.5) == nil)
        #expect(!bucket.isFull(now: 0.5))
        #expect(bucket.isFull(now: 2))
        #expect(bucket.take(now: 100) == nil)
        #expect(bucket.take(now: 100) == nil)
        #expect(bucket.take(now: 100) == nil)
        #expect(bucket.take(now: 100) != nil)  // never more than the capacity, however long the pause
    }

    @Test func retryAfterIsWholeSecondsAndFitsWhateverTheWait() {
        #expect(TokenBucket.retryAfterSeconds(0.2) == 1)
        #expect(TokenBucket.retryAfterSeconds(2.5) == 3)
        // A rate of 1e-300 per second waits 1e300 s: Int(_:) of that trapped.
        var bucket = TokenBucket(capacity: 1, ratePerSecond: 1e-300, now: 0)
        #expect(bucket.take(now: 0) == nil)
        let wait = bucket.take(now: 0) ?? 0
        #expect(wait > 1e299)
        #expect(TokenBucket.retryAfterSeconds(wait) == Int(Int32.max))
        #expect(TokenBucket.retryAfterSeconds(.infinity) == Int(Int32.max))
    }

    @Test func aClockThatGoesBackDoesNotMintTokens() {
        var bucket = TokenBucket(capacity: 1, ratePerSecond: 1, now: 10)
        #expect(bucket.take(now: 10) == nil)
        #expect(bucket.take(now: 5) != nil)
        #expect(bucket.take(now: 10) != nil)
        #expect(bucket.take(now: 11) == nil)
    }
}
