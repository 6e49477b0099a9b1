/// One event on its way to one endpoint, as a dispatcher leased it: the lease is the pair (`owner`, `attempt`), and
/// only its holder may settle it. A holder that dies leaves the row due again when its lease ends.
package struct WebhookDelivery: Sendable, Equatable {
    package var id: Int64
    package var eventID: String
    package var kind: WebhookEvent.Kind
    package var body: String
    /// When the event happened, Unix milliseconds: the retry window counts from here.
    package var createdAt: Int64
    /// This attempt's number, from 1.
    package var attempt: Int
    package var owner: String
    package var endpoint: WebhookEndpoint

    package init(
        id: Int64, eventID: String, kind: WebhookEvent.Kind, body: String, createdAt: Int64, attempt: Int,
        owner: String, endpoint: WebhookEndpoint
    ) {
        self.id = id
        self.eventID = eventID
        self.kind = kind
        self.body = body
        self.createdAt = createdAt
        self.attempt = attempt
        self.owner = owner
        self.endpoint = endpoint
    }

    /// What an attempt came to.
    package enum Outcome: Sendable, Equatable {
        /// The receiver answered 2xx.
        case delivered(status: Int)
        /// Try again at `at` (Unix milliseconds).
        case retry(at: Int64, error: String)
        /// The retry window is over.
        case abandoned(error: String)

        /// What both engines write for it at `now`: `delivered_at`, `abandoned_at`, the next attempt (nil keeps the
        /// row's) and `last_error` (nil keeps the row's).
        package func columns(
            now: Int64
        ) -> (deliveredAt: Int64?, abandonedAt: Int64?, nextAttemptAt: Int64?, error: String?) {
            switch self {
            case .delivered: (now, nil, nil, nil)
            case let .retry(at, error): (nil, nil, at, error)
            case let .abandoned(error): (nil, now, nil, error)
            }
        }
    }
}
