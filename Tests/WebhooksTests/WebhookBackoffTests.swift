import Catalog
import Testing

@testable import Webhooks

@Suite(.timeLimit(.minutes(1))) struct WebhookBackoffTests {
    @Test func theCeilingDoublesFromTheFirstWaitToTheLongest() {
        let backoff = WebhookBackoff()
        #expect(
            (1...12).map { backoff.ceiling(afterAttempt: $0) } == [
                5_000, 10_000, 20_000, 40_000, 80_000, 160_000, 320_000, 640_000, 1_280_000, 2_560_000, 3_600_000,
                3_600_000,
            ])
        #expect(backoff.ceiling(afterAttempt: 10_000) == 3_600_000)
        #expect(backoff.ceiling(afterAttempt: 0) == 5_000)
        let odd = WebhookBackoff(first: .milliseconds(300), longest: .milliseconds(1000), window: .seconds(10))
        #expect((1...4).map { odd.ceiling(afterAttempt: $0) } == [300, 600, 1000, 1000])
    }

    @Test func eachWaitIsInTheUpperHalfOfItsCeiling() {
        let backoff = WebhookBackoff()
        for attempt in 1...15 {
            let ceiling = backoff.ceiling(afterAttempt: attempt)
            for unit in [0.0, 0.25, 0.5, 0.999, 1.0, -1, 7] {
                guard
                    case let .retry(at, error) = backoff.outcome(
                        afterAttempt: attempt, createdAt: 0, now: 1_000, unit: unit, error: "answered 500")
                else {
                    Issue.record("abandoned within the window")
                    return
                }
                #expect(error == "answered 500")
                #expect((1_000 + ceiling / 2...1_000 + ceiling).contains(at), "attempt \(attempt), unit \(unit): \(at)")
            }
        }
    }

    /// With the defaults an event is tried for a day, 30 to 60 times, then abandoned.
    @Test func anEventIsTriedForTheWholeWindowThenAbandoned() {
        let backoff = WebhookBackoff()
        for unit in [0.0, 0.5, 0.999] {
            var now: Int64 = 0, attempt = 1
            while case let .retry(at, _) = backoff.outcome(
                afterAttempt: attempt, createdAt: 0, now: now, unit: unit, error: "")
            {
                now = at
                attempt += 1
            }
            #expect(now >= 86_400_000 && now < 86_400_000 + 3_600_000, "last try at \(now)")
            #expect((30...60).contains(attempt), "\(attempt) attempts")
        }
        #expect(
            backoff.outcome(afterAttempt: 3, createdAt: 0, now: 86_400_000, unit: 0.5, error: "gone")
                == .abandoned(error: "gone"))
    }
}
