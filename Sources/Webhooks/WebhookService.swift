internal import Catalog
internal import Foundation
internal import Logging
package import ServiceLifecycle
internal import Synchronization

/// Delivers the outbox for as long as the server runs. Up to the dispatcher's `batch` attempts are in flight at once,
/// each in a task of its own: whenever one settles, due rows are leased for the free places, so a receiver that
/// never answers holds only its own attempts (until their timeout), never another endpoint's. It looks for due rows
/// when the next one is due and at least every `poll` (another process may have queued an event), and forgets
/// settled deliveries after `retention`. Publishing never waits for it: events are rows in the catalog.
package struct WebhookService: Service {
    let dispatcher: WebhookDispatcher
    let poll: Duration
    let retention: Duration

    package init(
        dispatcher: WebhookDispatcher, poll: Duration = .milliseconds(500), retention: Duration = .seconds(7 * 86_400)
    ) {
        self.dispatcher = dispatcher
        self.poll = poll
        self.retention = retention
    }

    static let clock: @Sendable () -> Int64 = { Int64(Date().timeIntervalSince1970 * 1000) }

    package func run() async throws {
        await cancelWhenGracefulShutdown {
            await withDiscardingTaskGroup { group in
                let inFlight = InFlight()
                var lastPurge: Int64 = 0
                while !Task.isCancelled {
                    let free = dispatcher.batch - inFlight.count.withLock { $0 }
                    var leased = 0
                    if free > 0 {
                        let deliveries = await dispatcher.lease(now: Self.clock(), limit: free)
                        leased = deliveries.count
                        inFlight.count.withLock { $0 += deliveries.count }
                        for delivery in deliveries {
                            group.addTask {
                                await dispatcher.attempt(delivery, now: Self.clock)
                                inFlight.count.withLock { $0 -= 1 }
                            }
                        }
                    }
                    // Every free place taken: there may be more due at once.
                    if leased > 0, leased == free { continue }
                    let now = Self.clock()
                    if now - lastPurge > 3_600_000 {
                        lastPurge = now
                        await purge(now: now)
                    }
                    let pollMilliseconds = WebhookBackoff.milliseconds(poll)
                    var wait = pollMilliseconds
                    if free > leased, let due = try? await dispatcher.outbox.nextWebhookDue() {
                        wait = min(max(due - Self.clock(), 0), pollMilliseconds)
                    }
                    if wait > 0 { try? await Task.sleep(for: .milliseconds(wait)) }
                }
            }
        }
    }

    func purge(now: Int64) async {
        do {
            let purged = try await dispatcher.outbox.purgeWebhookDeliveries(
                settledBefore: now - WebhookBackoff.milliseconds(retention))
            if purged > 0 {
                dispatcher.logger.info("settled webhook deliveries forgotten", metadata: ["count": "\(purged)"])
            }
        } catch {
            dispatcher.logger.error("cannot forget settled webhook deliveries yet", metadata: ["error": "\(error)"])
        }
    }
}

/// How many attempts are running: shared by the loop and the attempts' tasks.
final class InFlight: Sendable {
    let count = Mutex(0)
}
