internal import Catalog
internal import Foundation
internal import Logging
package import ServiceLifecycle

/// Runs `WebhookDispatcher` rounds for as long as the server runs: at once while a round finds work, otherwise when
/// the next delivery is due, looking again at least every `poll` (another process may have queued an event), and
/// forgets settled deliveries after `retention`. Publishing never waits for it: events are rows in the catalog.
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
            var lastPurge: Int64 = 0
            while !Task.isCancelled {
                if await dispatcher.round(now: Self.clock) == dispatcher.batch { continue }
                let now = Self.clock()
                if now - lastPurge > 3_600_000 {
                    lastPurge = now
                    await purge(now: now)
                }
                let pollMilliseconds = WebhookBackoff.milliseconds(poll)
                var wait = pollMilliseconds
                if let due = try? await dispatcher.outbox.nextWebhookDue() {
                    wait = min(max(due - Self.clock(), 0), pollMilliseconds)
                }
                if wait > 0 { try? await Task.sleep(for: .milliseconds(wait)) }
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
