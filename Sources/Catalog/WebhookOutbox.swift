/// Webhooks' durable outbox (issue 65). The engines write an event's deliveries in the same transaction as the change
/// it reports (`publishPlayable`, `publish`, `finishDuplicate`, `finishJob`, `removePost`), one row per endpoint that
/// asked for its kind, so an acknowledged change is never left unannounced and nothing is announced that did not
/// commit. Dispatchers on any host lease due rows (on PostgreSQL, skipping rows another holds), post them, and
/// settle them; a dead dispatcher's rows come due again when its lease ends. Delivery is at least once.
package protocol WebhookOutbox: Sendable {
    func addWebhookEndpoint(_ endpoint: WebhookEndpoint) async throws(CatalogError)
    /// Every endpoint with its deliveries' counts, oldest first.
    func webhookEndpoints() async throws(CatalogError) -> [WebhookEndpointStatus]
    /// Replaces endpoint `id`'s secret with `secret`, keeping the one it replaces for signing until
    /// `keepingPreviousUntil` (Unix milliseconds). - Returns: false when there is no such endpoint.
    func rotateWebhookSecret(
        id: String, to secret: String, keepingPreviousUntil: Int64
    ) async throws(CatalogError)
        -> Bool
    /// Removes an endpoint and the deliveries still owed to it. - Returns: false when there was no such endpoint.
    func removeWebhookEndpoint(id: String) async throws(CatalogError) -> Bool
    /// Up to `limit` deliveries due at `now`, oldest first, leased to `owner` until `now + leaseMilliseconds`.
    func leaseWebhookDeliveries(
        owner: String, now: Int64, leaseMilliseconds: Int64, limit: Int
    ) async throws(CatalogError) -> [WebhookDelivery]
    /// Records an attempt's outcome. - Returns: false when the lease was no longer held (taken over after it ended,
    /// or its endpoint was removed): nothing changed.
    func settleWebhookDelivery(
        _ delivery: WebhookDelivery, _ outcome: WebhookDelivery.Outcome, now: Int64
    ) async throws(CatalogError) -> Bool
    /// When the earliest unsettled delivery is due (or its lease ends); nil when none is owed.
    func nextWebhookDue() async throws(CatalogError) -> Int64?
    /// Forgets delivered and abandoned rows settled before `settledBefore`; returns how many.
    func purgeWebhookDeliveries(settledBefore: Int64) async throws(CatalogError) -> Int
}
