public import FeedStore

/// Group commit for `POST /v1/events`: the batches that arrive while one write runs go together in the next, so the
/// catalog commits (and fsyncs) once per group rather than once per request, and each request still returns only
/// after the write that holds its events is committed. At most one write runs and one waits at a time; the events
/// waiting are bounded, and past the bound a batch is refused at once (429) rather than queued without end.
public actor ViewerEventIngest {
    public enum Refusal: Error, Equatable {
        /// The write queue holds `waiting` events and this batch would pass `limit`.
        case queueFull(waiting: Int, limit: Int)
    }

    public let log: any ViewerEventLog
    public let maximumWaiting: Int
    private var waiting: [ReceivedViewerEvent] = []
    /// The write that will take `waiting`: nil once it has taken them.
    private var next: Task<Result<Void, CatalogError>, Never>?
    /// The last write started, which the next one waits for, so groups commit in the order they formed.
    private var last: Task<Result<Void, CatalogError>, Never>?
    /// Writes committed so far and the events in them: what grouping achieved.
    public private(set) var committedGroups = 0
    public private(set) var committedEvents = 0
    /// Events accepted and not yet taken by a write.
    public var waitingCount: Int { waiting.count }

    public static let defaultMaximumWaiting = 50_000

    public init(log: any ViewerEventLog, maximumWaiting: Int = defaultMaximumWaiting) {
        self.log = log
        self.maximumWaiting = max(1, maximumWaiting)
    }

    /// Returns once `events` are committed.
    /// - Throws: `Refusal.queueFull` at once when they do not fit; the write's `CatalogError` when it failed (nothing
    ///   of the group was stored: it is one transaction).
    public func commit(_ events: [ReceivedViewerEvent]) async throws {
        guard !events.isEmpty else { return }
        guard waiting.count + events.count <= maximumWaiting else {
            throw Refusal.queueFull(waiting: waiting.count, limit: maximumWaiting)
        }
        waiting += events
        let write: Task<Result<Void, CatalogError>, Never>
        if let next {
            write = next
        } else {
            let previous = last
            write = Task {
                _ = await previous?.value
                let group = await self.take()
                do throws(CatalogError) {
                    try await self.log.appendViewerEvents(group)
                    await self.committed(group.count)
                    return .success(())
                } catch {
                    return .failure(error)
                }
            }
            next = write
            last = write
        }
        try await write.value.get()
    }

    /// The events waiting, for the write that starts now; later batches form the next group.
    private func take() -> [ReceivedViewerEvent] {
        let group = waiting
        waiting = []
        next = nil
        return group
    }

    private func committed(_ count: Int) {
        committedGroups += 1
        committedEvents += count
    }
}
