package import Catalog
internal import GRDB

/// Webhooks' outbox (`WebhookOutbox`). SQLite has one writer at a time, so a lease is one `UPDATE ... RETURNING`
/// and two dispatchers never take the same row.
extension SQLiteCatalogEngine {
    /// Queues `event` for every endpoint that asked for its kind, in the caller's transaction.
    static func enqueue(_ event: WebhookEvent, _ db: Database) throws {
        try db.cachedStatement(sql: WebhookEndpoint.enqueueSQL).execute(arguments: [
            event.id, event.kind.rawValue, event.body, event.createdAt, event.createdAt, event.kind.rawValue,
        ])
    }

    package func addWebhookEndpoint(_ endpoint: WebhookEndpoint) async throws(CatalogError) {
        try await write { db in
            try db.execute(
                sql: """
                    INSERT INTO webhook_endpoints (id, url, events, secret, allow_private, created_at)
                    VALUES (?, ?, ?, ?, ?, ?)
                    """,
                arguments: [
                    endpoint.id, endpoint.url, WebhookEndpoint.eventsColumn(endpoint.events), endpoint.secret,
                    endpoint.allowsPrivateAddresses ? 1 : 0, endpoint.createdAt,
                ])
        }
    }

    package func webhookEndpoints() async throws(CatalogError) -> [WebhookEndpointStatus] {
        try await read { db in
            try Row.fetchAll(
                db,
                sql: WebhookEndpoint.statusSQL
            ).map { row in
                WebhookEndpointStatus(
                    endpoint: Self.endpoint(row: row), pending: row["pending"], delivered: row["delivered"],
                    abandoned: row["abandoned"], lastError: row["last_error"])
            }
        }
    }

    package func rotateWebhookSecret(
        id: String, to secret: String, keepingPreviousUntil: Int64
    ) async throws(CatalogError) -> Bool {
        try await write { db in
            try db.execute(
                sql: """
                    UPDATE webhook_endpoints SET previous_secret = secret, previous_secret_until = ?, secret = ?
                    WHERE id = ?
                    """,
                arguments: [keepingPreviousUntil, secret, id])
            return db.changesCount == 1
        }
    }

    package func removeWebhookEndpoint(id: String) async throws(CatalogError) -> Bool {
        try await write { db in
            try db.execute(sql: "DELETE FROM webhook_endpoints WHERE id = ?", arguments: [id])
            guard db.changesCount == 1 else { return false }
            try db.execute(
                sql:
                    "DELETE FROM webhook_deliveries WHERE endpoint_id = ? AND delivered_at IS NULL AND abandoned_at IS NULL",
                arguments: [id])
            return true
        }
    }

    package func leaseWebhookDeliveries(
        owner: String, now: Int64, leaseMilliseconds: Int64, limit: Int
    ) async throws(CatalogError) -> [WebhookDelivery] {
        try await write { db in
            let rows = try Row.fetchAll(
                db,
                sql: """
                    UPDATE webhook_deliveries SET lease_owner = ?, attempts = attempts + 1, next_attempt_at = ?
                    WHERE id IN (SELECT id FROM webhook_deliveries
                                 WHERE delivered_at IS NULL AND abandoned_at IS NULL AND next_attempt_at <= ?
                                 ORDER BY next_attempt_at, id LIMIT ?)
                    RETURNING id, event_id, endpoint_id, type, body, created_at, attempts
                    """,
                arguments: [owner, now + leaseMilliseconds, now, limit])
            var endpoints: [String: WebhookEndpoint] = [:]
            return try rows.compactMap { row -> WebhookDelivery? in
                let endpointID: String = row["endpoint_id"]
                if endpoints[endpointID] == nil {
                    endpoints[endpointID] = try Row.fetchOne(
                        db, sql: "SELECT * FROM webhook_endpoints WHERE id = ?", arguments: [endpointID]
                    ).map(Self.endpoint(row:))
                }
                guard let endpoint = endpoints[endpointID], let kind = WebhookEvent.Kind(rawValue: row["type"])
                else { return nil }
                return WebhookDelivery(
                    id: row["id"], eventID: row["event_id"], kind: kind, body: row["body"],
                    createdAt: row["created_at"],
                    attempt: row["attempts"], owner: owner, endpoint: endpoint)
            }.sorted { $0.id < $1.id }
        }
    }

    package func settleWebhookDelivery(
        _ delivery: WebhookDelivery, _ outcome: WebhookDelivery.Outcome, now: Int64
    ) async throws(CatalogError) -> Bool {
        let (delivered, abandoned, next, error) = outcome.columns(now: now)
        return try await write { db in
            try db.execute(
                sql: """
                    UPDATE webhook_deliveries
                    SET delivered_at = ?, abandoned_at = ?, next_attempt_at = coalesce(?, next_attempt_at),
                        last_error = coalesce(?, last_error), last_attempt_at = ?, lease_owner = NULL
                    WHERE id = ? AND lease_owner = ? AND attempts = ? AND delivered_at IS NULL AND abandoned_at IS NULL
                    """,
                arguments: [delivered, abandoned, next, error, now, delivery.id, delivery.owner, delivery.attempt])
            return db.changesCount == 1
        }
    }

    package func nextWebhookDue() async throws(CatalogError) -> Int64? {
        try await read { db in
            try Int64.fetchOne(
                db,
                sql: """
                    SELECT min(next_attempt_at) FROM webhook_deliveries
                    WHERE delivered_at IS NULL AND abandoned_at IS NULL
                    """)
        }
    }

    package func purgeWebhookDeliveries(settledBefore: Int64) async throws(CatalogError) -> Int {
        try await write { db in
            try db.execute(
                sql: "DELETE FROM webhook_deliveries WHERE coalesce(delivered_at, abandoned_at) < ?",
                arguments: [settledBefore])
            return db.changesCount
        }
    }

    static func endpoint(row: Row) -> WebhookEndpoint {
        WebhookEndpoint(
            id: row["id"], url: row["url"], events: WebhookEndpoint.events(column: row["events"]),
            secret: row["secret"],
            allowsPrivateAddresses: (row["allow_private"] as Int64) != 0, createdAt: row["created_at"],
            previousSecret: row["previous_secret"], previousSecretUntil: row["previous_secret_until"])
    }
}
