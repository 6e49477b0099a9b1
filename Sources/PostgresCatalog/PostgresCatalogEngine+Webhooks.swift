package import Catalog
internal import Logging
internal import PostgresNIO

/// Webhooks' outbox (`WebhookOutbox`), as `SQLiteCatalogEngine+Webhooks` keeps it. Dispatchers on many hosts lease
/// due rows with `FOR UPDATE SKIP LOCKED`: they pass each other's rows by instead of waiting, and never share one.
extension PostgresCatalogEngine {
    /// Queues `event` for every endpoint that asked for its kind, in the caller's transaction.
    static func enqueue(_ event: WebhookEvent, _ connection: PostgresConnection, logger: Logger) async throws {
        var binds = PostgresBindings()
        binds.append(event.id)
        binds.append(event.kind.rawValue)
        binds.append(event.body)
        binds.append(event.createdAt)
        binds.append(event.createdAt)
        binds.append(event.kind.rawValue)
        try await connection.query(PostgresQuery(unsafeSQL: WebhookEndpoint.enqueueSQL, binds: binds), logger: logger)
    }

    package func addWebhookEndpoint(_ endpoint: WebhookEndpoint) async throws(CatalogError) {
        let events = WebhookEndpoint.eventsColumn(endpoint.events)
        let allow: Int64 = endpoint.allowsPrivateAddresses ? 1 : 0
        _ = try await rows(
            "add webhook endpoint \(endpoint.id)",
            """
            INSERT INTO webhook_endpoints (id, url, events, secret, allow_private, created_at)
            VALUES (\(endpoint.id), \(endpoint.url), \(events), \(endpoint.secret), \(allow), \(endpoint.createdAt))
            """)
    }

    package func webhookEndpoints() async throws(CatalogError) -> [WebhookEndpointStatus] {
        let operation = "read the webhook endpoints"
        let rows = try await rows(
            operation,
            PostgresQuery(unsafeSQL: WebhookEndpoint.statusSQL))
        return try Self.decode(operation) {
            try rows.map { row in
                WebhookEndpointStatus(
                    endpoint: try Self.endpoint(row: row), pending: Int(try row.value("pending", as: Int64.self)),
                    delivered: Int(try row.value("delivered", as: Int64.self)),
                    abandoned: Int(try row.value("abandoned", as: Int64.self)),
                    lastError: try row.value("last_error", as: String?.self))
            }
        }
    }

    package func rotateWebhookSecret(
        id: String, to secret: String, keepingPreviousUntil: Int64
    ) async throws(CatalogError) -> Bool {
        try await rows(
            "rotate the secret of webhook endpoint \(id)",
            """
            UPDATE webhook_endpoints SET previous_secret = secret, previous_secret_until = \(keepingPreviousUntil),
                                         secret = \(secret)
            WHERE id = \(id) RETURNING id
            """
        ).count == 1
    }

    package func removeWebhookEndpoint(id: String) async throws(CatalogError) -> Bool {
        try await transaction("remove webhook endpoint \(id)") { connection in
            let logger = self.logger
            guard
                try await connection.count(
                    "DELETE FROM webhook_endpoints WHERE id = \(id) RETURNING id", logger: logger) == 1
            else { return false }
            try await connection.query(
                """
                DELETE FROM webhook_deliveries WHERE endpoint_id = \(id) AND delivered_at IS NULL AND abandoned_at IS NULL
                """, logger: logger)
            return true
        }
    }

    package func leaseWebhookDeliveries(
        owner: String, now: Int64, leaseMilliseconds: Int64, limit: Int
    ) async throws(CatalogError) -> [WebhookDelivery] {
        let operation = "lease webhook deliveries for \(owner)"
        let rows = try await rows(
            operation,
            """
            WITH leased AS (
                UPDATE webhook_deliveries SET lease_owner = \(owner), attempts = attempts + 1,
                                              next_attempt_at = \(now + leaseMilliseconds)
                WHERE id IN (SELECT id FROM webhook_deliveries
                             WHERE delivered_at IS NULL AND abandoned_at IS NULL AND next_attempt_at <= \(now)
                             ORDER BY next_attempt_at, id LIMIT \(Int64(limit)) FOR UPDATE SKIP LOCKED)
                RETURNING id, event_id, endpoint_id, type, body, created_at, attempts
            )
            SELECT l.id AS delivery_id, l.event_id, l.type, l.body, l.created_at AS event_created_at, l.attempts, e.*
            FROM leased l JOIN webhook_endpoints e ON e.id = l.endpoint_id ORDER BY l.id
            """)
        return try Self.decode(operation) {
            try rows.compactMap { row in
                guard let kind = WebhookEvent.Kind(rawValue: try row.value("type", as: String.self)) else { return nil }
                return WebhookDelivery(
                    id: try row.value("delivery_id", as: Int64.self),
                    eventID: try row.value("event_id", as: String.self),
                    kind: kind, body: try row.value("body", as: String.self),
                    createdAt: try row.value("event_created_at", as: Int64.self),
                    attempt: Int(try row.value("attempts", as: Int64.self)), owner: owner,
                    endpoint: try Self.endpoint(row: row))
            }
        }
    }

    package func settleWebhookDelivery(
        _ delivery: WebhookDelivery, _ outcome: WebhookDelivery.Outcome, now: Int64
    ) async throws(CatalogError) -> Bool {
        let (delivered, abandoned, next, error) = outcome.columns(now: now)
        return try await rows(
            "settle webhook delivery \(delivery.id)",
            """
            UPDATE webhook_deliveries
            SET delivered_at = \(delivered), abandoned_at = \(abandoned), next_attempt_at = coalesce(\(next), next_attempt_at),
                last_error = coalesce(\(error), last_error), last_attempt_at = \(now), lease_owner = NULL
            WHERE id = \(delivery.id) AND lease_owner = \(delivery.owner) AND attempts = \(Int64(delivery.attempt))
                  AND delivered_at IS NULL AND abandoned_at IS NULL
            RETURNING id
            """
        ).count == 1
    }

    package func nextWebhookDue() async throws(CatalogError) -> Int64? {
        let operation = "read when the next webhook delivery is due"
        let rows = try await rows(
            operation,
            """
            SELECT min(next_attempt_at) AS due FROM webhook_deliveries WHERE delivered_at IS NULL AND abandoned_at IS NULL
            """)
        return try Self.decode(operation) { try rows.first?.value("due", as: Int64?.self) }
    }

    package func purgeWebhookDeliveries(settledBefore: Int64) async throws(CatalogError) -> Int {
        try await rows(
            "forget settled webhook deliveries",
            "DELETE FROM webhook_deliveries WHERE coalesce(delivered_at, abandoned_at) < \(settledBefore) RETURNING id"
        ).count
    }

    static func endpoint(row: PostgresRandomAccessRow) throws -> WebhookEndpoint {
        WebhookEndpoint(
            id: try row.value("id", as: String.self), url: try row.value("url", as: String.self),
            events: WebhookEndpoint.events(column: try row.value("events", as: String.self)),
            secret: try row.value("secret", as: String.self),
            allowsPrivateAddresses: try row.value("allow_private", as: Int64.self) != 0,
            createdAt: try row.value("created_at", as: Int64.self),
            previousSecret: try row.value("previous_secret", as: String?.self),
            previousSecretUntil: try row.value("previous_secret_until", as: Int64?.self))
    }
}
