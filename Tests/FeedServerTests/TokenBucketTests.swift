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

    @Test func aClockThatGoesBackDoesNotMintTokens() {
        var bucket = TokenBucket(capacity: 1, ratePerSecond: 1, now: 10)
        #expect(bucket.take(now: 10) == nil)
        #expect(bucket.take(now: 5) != nil)
        #expect(bucket.take(now: 10) != nil)
        #expect(bucket.take(now: 11) == nil)
    }
}
