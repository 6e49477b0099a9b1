/// Where an operator wants events sent (`reel webhook add`). The secret signs every delivery to it; it is kept in
/// the catalog because signing needs it, and shown once, when the endpoint is added.
package struct WebhookEndpoint: Sendable, Equatable {
    /// `whe_` and 16 random hex digits.
    package var id: String
    /// An http or https URL (`WebhookURL` checked it).
    package var url: String
    package var events: Set<WebhookEvent.Kind>
    package var secret: String
    /// Whether deliveries may go to loopback, private or link-local addresses (the operator's own network).
    package var allowsPrivateAddresses: Bool
    /// Unix milliseconds.
    package var createdAt: Int64
    /// After a rotation, the secret that was replaced: deliveries are signed with it too until
    /// `previousSecretUntil` (Unix milliseconds), so a receiver can move to the new one at its own pace.
    package var previousSecret: String?
    package var previousSecretUntil: Int64?

    package init(
        id: String, url: String, events: Set<WebhookEvent.Kind>, secret: String, allowsPrivateAddresses: Bool,
        createdAt: Int64, previousSecret: String? = nil, previousSecretUntil: Int64? = nil
    ) {
        self.id = id
        self.url = url
        self.events = events
        self.secret = secret
        self.allowsPrivateAddresses = allowsPrivateAddresses
        self.createdAt = createdAt
        self.previousSecret = previousSecret
        self.previousSecretUntil = previousSecretUntil
    }

    /// The secrets a delivery at `now` is signed with: the current one, and the previous one while it is kept.
    package func signingSecrets(now: Int64) -> [String] {
        guard let previousSecret, let until = previousSecretUntil, now < until else { return [secret] }
        return [secret, previousSecret]
    }

    /// The `events` column: kinds, comma-separated, in a fixed order, so `LIKE '%,kind,%'` on `,events,` finds them.
    package static func eventsColumn(_ events: Set<WebhookEvent.Kind>) -> String {
        WebhookEvent.Kind.allCases.filter(events.contains).map(\.rawValue).joined(separator: ",")
    }

    /// Reads the `events` column; kinds this version does not know are skipped.
    package static func events(column: String) -> Set<WebhookEvent.Kind> {
        Set(column.split(separator: ",").compactMap { WebhookEvent.Kind(rawValue: String($0)) })
    }

    /// The catalog's statement that queues `event` for every endpoint that asked for its kind, with the parameters
    /// `(event id, kind, body, created_at, next_attempt_at, kind)`, in that order. Both engines run it in the
    /// transaction of the change the event reports.
    package static let enqueueSQL = """
        INSERT INTO webhook_deliveries (event_id, endpoint_id, type, body, created_at, next_attempt_at, attempts)
        SELECT $1, id, $2, $3, $4, $5, 0 FROM webhook_endpoints WHERE ',' || events || ',' LIKE '%,' || $6 || ',%'
        """
}

extension WebhookEndpoint {
    /// Both engines' query for `webhookEndpoints()`: each endpoint's row with its deliveries' counts and last error.
    package static let statusSQL = """
        SELECT e.*,
               (SELECT count(*) FROM webhook_deliveries d WHERE d.endpoint_id = e.id
                    AND d.delivered_at IS NULL AND d.abandoned_at IS NULL) AS pending,
               (SELECT count(*) FROM webhook_deliveries d WHERE d.endpoint_id = e.id
                    AND d.delivered_at IS NOT NULL) AS delivered,
               (SELECT count(*) FROM webhook_deliveries d WHERE d.endpoint_id = e.id
                    AND d.abandoned_at IS NOT NULL) AS abandoned,
               (SELECT d.last_error FROM webhook_deliveries d WHERE d.endpoint_id = e.id
                    AND d.last_error IS NOT NULL ORDER BY d.last_attempt_at DESC LIMIT 1) AS last_error
        FROM webhook_endpoints e ORDER BY e.created_at, e.id
        """
}

/// An endpoint with what became of its deliveries, for `reel webhook list`.
package struct WebhookEndpointStatus: Sendable, Equatable {
    package var endpoint: WebhookEndpoint
    /// Not yet delivered, and still being tried.
    package var pending: Int
    package var delivered: Int
    /// Given up after the retry window.
    package var abandoned: Int
    /// The last failed attempt's status line or error, if any.
    package var lastError: String?

    package init(endpoint: WebhookEndpoint, pending: Int, delivered: Int, abandoned: Int, lastError: String?) {
        self.endpoint = endpoint
        self.pending = pending
        self.delivered = delivered
        self.abandoned = abandoned
        self.lastError = lastError
    }
}
