package import Catalog
package import Logging

/// Delivery: lease what is due, post each (many at once), and settle each with its outcome. Nothing here throws: a
/// catalog that cannot be reached is logged and tried again later; a lease not settled comes due again when it ends.
package struct WebhookDispatcher: Sendable {
    package let outbox: any WebhookOutbox
    package let sender: WebhookSender
    package let backoff: WebhookBackoff
    /// Unique per process: leases are fenced by it and the attempt's number.
    package let owner: String
    /// How many attempts may be in flight at once.
    package let batch: Int
    package let logger: Logger

    package init(
        outbox: any WebhookOutbox, sender: WebhookSender, backoff: WebhookBackoff, owner: String, batch: Int = 16,
        logger: Logger
    ) {
        self.outbox = outbox
        self.sender = sender
        self.backoff = backoff
        self.owner = owner
        self.batch = batch
        self.logger = logger
    }

    /// How long a lease lasts: the attempt's bound and a margin for settling it.
    var leaseMilliseconds: Int64 { WebhookBackoff.milliseconds(sender.timeout) * 2 + 5000 }

    /// Up to `limit` deliveries due at `now`, leased to this dispatcher; none when the catalog cannot be reached.
    func lease(now: Int64, limit: Int) async -> [WebhookDelivery] {
        do {
            return try await outbox.leaseWebhookDeliveries(
                owner: owner, now: now, leaseMilliseconds: leaseMilliseconds, limit: limit)
        } catch {
            logger.error("cannot lease webhook deliveries", metadata: ["error": "\(error)"])
            return []
        }
    }

    /// Posts one leased delivery and settles it.
    func attempt(_ delivery: WebhookDelivery, now: @escaping @Sendable () -> Int64) async {
        let result = await sender.send(delivery)
        let finished = now()
        let outcome: WebhookDelivery.Outcome =
            switch result {
            case let .delivered(status): .delivered(status: status)
            case let .failed(error):
                backoff.outcome(
                    afterAttempt: delivery.attempt, createdAt: delivery.createdAt, now: finished,
                    unit: Double.random(in: 0..<1), error: error)
            }
        var metadata: Logger.Metadata = [
            "event": "\(delivery.eventID)", "type": "\(delivery.kind.rawValue)", "endpoint": "\(delivery.endpoint.id)",
            "attempt": "\(delivery.attempt)",
        ]
        switch outcome {
        case .delivered: logger.info("webhook delivered", metadata: metadata)
        case let .retry(at, error):
            metadata["error"] = "\(error)"
            metadata["retry_in_ms"] = "\(at - finished)"
            logger.warning("webhook delivery failed; will retry", metadata: metadata)
        case let .abandoned(error):
            metadata["error"] = "\(error)"
            logger.error("webhook delivery abandoned after its retry window", metadata: metadata)
        }
        do {
            if try await !outbox.settleWebhookDelivery(delivery, outcome, now: finished) {
                logger.warning(
                    "webhook lease ended before the attempt settled; it will be tried again", metadata: metadata)
            }
        } catch {
            metadata["error"] = "\(error)"
            logger.error("cannot record a webhook attempt; it will be tried again", metadata: metadata)
        }
    }
}
