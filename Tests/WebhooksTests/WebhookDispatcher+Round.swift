@testable import Webhooks

extension WebhookDispatcher {
    /// One round on the test's clock: leases what is due at `now()` and waits for every attempt. The service keeps
    /// attempts in flight on their own instead; the tests step through an outage round by round.
    @discardableResult
    func round(now: @escaping @Sendable () -> Int64) async -> Int {
        let leased = await lease(now: now(), limit: batch)
        await withTaskGroup(of: Void.self) { group in
            for delivery in leased {
                group.addTask { await attempt(delivery, now: now) }
            }
        }
        return leased.count
    }
}
