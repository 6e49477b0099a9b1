package import ViewerAnalytics

/// What viewers' players report (`POST /v1/events`) and what it adds up to per video. A batch is stored in one
/// transaction and is durable when `appendViewerEvents` returns, so the route answers 204 only for events that a
/// crash cannot take back. The server groups the batches that arrive together into one call (`GroupCommit`).
package protocol ViewerEventLog: Sendable {
    /// Stores `events` in one transaction, in order, each received at its own time (Unix milliseconds).
    func appendViewerEvents(_ events: [ReceivedViewerEvent]) async throws(CatalogError)
    /// Up to `limit` stored events with ids after `after` (0 for the first) and at most `through`, in id order: the
    /// order they were stored. The roll-up reads the ids it saw missing again with `through`.
    func viewerEvents(after: Int64, through: Int64, limit: Int) async throws(CatalogError) -> [StoredViewerEvent]
    /// Deletes the events received before `receivedBefore` (Unix milliseconds); returns how many went.
    func deleteViewerEvents(receivedBefore: Int64) async throws(CatalogError) -> Int
    /// Replaces every video's figures with `stats` in one transaction: a video missing from it has none afterwards.
    func replaceVideoStats(_ stats: [VideoStats], rolledAt: Int64) async throws(CatalogError)
    /// The figures of the last roll-up for `video`, or nil when it had no view.
    func videoStats(video: String) async throws(CatalogError) -> VideoStats?
    /// Every video's figures from the last roll-up, in video id order.
    func allVideoStats() async throws(CatalogError) -> [VideoStats]
}

extension ViewerEventLog {
    /// Up to `limit` stored events after id `after` (0 for the first), in id order: the order they were stored.
    package func viewerEvents(after: Int64, limit: Int) async throws(CatalogError) -> [StoredViewerEvent] {
        try await viewerEvents(after: after, through: .max, limit: limit)
    }
}

/// An event as the route hands it to the log: with the time this server received its batch.
package struct ReceivedViewerEvent: Sendable, Equatable {
    package var receivedAt: Int64
    package var event: ViewerEvent

    package init(receivedAt: Int64, event: ViewerEvent) {
        self.receivedAt = receivedAt
        self.event = event
    }
}

/// An event as the log holds it: its id gives the order it was stored in.
package struct StoredViewerEvent: Sendable, Equatable {
    package var id: Int64
    package var receivedAt: Int64
    package var event: ViewerEvent

    package init(id: Int64, receivedAt: Int64, event: ViewerEvent) {
        self.id = id
        self.receivedAt = receivedAt
        self.event = event
    }
}
