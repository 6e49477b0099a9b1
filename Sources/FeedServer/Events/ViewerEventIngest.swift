package import Catalog

/// Group commit for `POST /v1/events`: the batches that arrive while one write runs go together in the next, so the
/// catalog commits (and fsyncs) once per group rather than once per request, and each request still returns only
/// after the write that holds its events is committed. At most one write runs and one waits at a time; the events
/// waiting are bounded, and past the bound a batch is refused at once (429) rather than queued without end.
///
/// Writes start at least `spacing` apart. Without it, batches arriving a few milliseconds apart each got a write of
/// their own, and a commit (its WAL frames and its hops to the writer and back) cost as much as the batch's rows:
/// 0.91-0.97 ms of server CPU per batch of 50 at 400 batches/s arriving at random, against 0.61-0.75 ms with 10 ms
/// spacing. A batch after a quiet spell is written at once; under load each waits at most `spacing` longer
/// (docs/quirks.md, "Group commit").
package actor ViewerEventIngest {
    package enum Refusal: Error, Equatable {
        /// The write queue holds `waiting` events and this batch would pass `limit`.
        case queueFull(waiting: Int, limit: Int)
    }

    package let log: any ViewerEventLog
    package let maximumWaiting: Int
    package let spacing: Duration
    private var waiting: [ReceivedViewerEvent] = []
    /// The write that will take `waiting`: nil once it has taken them.
    private var next: Task<Result<Void, CatalogError>, Never>?
    /// The last write started, which the next one waits for, so groups commit in the order they formed.
    private var last: Task<Result<Void, CatalogError>, Never>?
    /// When the last write started (or is due to start), which the next one keeps `spacing` from.
    private var lastStart: ContinuousClock.Instant?
    /// Writes committed so far and the events in them: what grouping achieved.
    package private(set) var committedGroups = 0
    package private(set) var committedEvents = 0
    /// Events accepted and not yet taken by a write.
    package var waitingCount: Int { waiting.count }

    package static let defaultMaximumWaiting = 50_000
    package static let defaultSpacing = Duration.milliseconds(10)

    package init(
        log: any ViewerEventLog, maximumWaiting: Int = defaultMaximumWaiting, spacing: Duration = defaultSpacing
    ) {
        self.log = log
        self.maximumWaiting = max(1, maximumWaiting)
        self.spacing = max(.zero, spacing)
    }

    /// Returns once `events` are committed.
    /// - Throws: `Refusal.queueFull` at once when they do not fit; the write's `CatalogError` when it failed (nothing
    ///   of the group was stored: it is one transaction).
    package func commit(_ events: [ReceivedViewerEvent]) async throws {
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
                let delay = self.startNextWrite()
                // Bounded by `spacing`; the task is never cancelled, and a cancelled sleep would only write sooner.
                if delay > .zero { try? await Task.sleep(for: delay) }
                let group = self.take()
                do throws(CatalogError) {
                    try await self.log.appendViewerEvents(group)
                    self.committed(group.count)
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

    /// How long the next write waits so that it starts `spacing` after the last one; records its start.
    private func startNextWrite() -> Duration {
        let now = ContinuousClock.now
        let delay = Self.delay(sinceLastStart: lastStart.map { now - $0 }, spacing: spacing)
        lastStart = now + delay
        return delay
    }

    /// What is left of `spacing` since the last write started: nothing after a quiet spell or for the first write.
    static func delay(sinceLastStart elapsed: Duration?, spacing: Duration) -> Duration {
        guard let elapsed, elapsed < spacing else { return .zero }
        return spacing - max(.zero, elapsed)
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
