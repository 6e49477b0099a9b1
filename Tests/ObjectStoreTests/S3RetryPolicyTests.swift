import Testing

@testable import ObjectStore

@Suite(.timeLimit(.minutes(5))) struct S3RetryPolicyTests {
    @Test func waitsGrowToTheCapAndStayUnderTheCeiling() {
        let policy = S3RetryPolicy.standard
        #expect((1...7).map { policy.ceiling(beforeRetry: $0) } == [0.25, 0.5, 1, 2, 4, 8, 8])
        #expect(policy.ceiling(beforeRetry: 0) == 0 && policy.ceiling(beforeRetry: 64) == 8)
        for retry in 1...10 {
            for fraction in [-1.0, 0, 0.5, 0.999, 2] {
                let delay = policy.delay(beforeRetry: retry, fraction: fraction)
                #expect(delay >= policy.ceiling(beforeRetry: retry) / 2 && delay <= policy.ceiling(beforeRetry: retry))
            }
        }
        let shortest = (1..<policy.maxAttempts).map { policy.delay(beforeRetry: $0, fraction: 0) }.reduce(0, +)
        #expect(shortest == 7.875, "the retries of one call span at least this long")
        #expect(S3RetryPolicy(maxAttempts: 0, baseSeconds: 1, capSeconds: 1).maxAttempts == 1)
    }

    @Test func onlyTransientAnswersAreRetried() {
        for status in [500, 502, 503, 504] { #expect(S3RetryPolicy.isRetryable(status: status, code: nil)) }
        for code in ["SlowDown", "InternalError", "RequestTimeout", "ServiceUnavailable", "ConditionalRequestConflict"]
        {
            #expect(S3RetryPolicy.isRetryable(status: 400, code: code))
        }
        for status in [400, 401, 403, 404, 409, 412, 416] {
            #expect(!S3RetryPolicy.isRetryable(status: status, code: "AccessDenied"))
        }
    }
}
