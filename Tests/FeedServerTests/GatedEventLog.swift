import Catalog
import SQLiteCatalog
import Synchronization
import ViewerAnalytics

/// A `ViewerEventLog` in memory whose writes wait until the test opens the gate, so a test can hold a write while
/// more batches arrive; it can also fail the writes it is told to.
final class GatedEventLog: ViewerEventLog {
    private struct State {
        var stored: [ReceivedViewerEvent] = []
        var writes: [Int] = []
        var failing = false
    }
    private let state = Mutex(State())
    private let gate: AsyncStream<Void>
    private let opener: AsyncStream<Void>.Continuation
    /// Set once a write has started (and is waiting at the gate).
    private let started: AsyncStream<Void>
    private let starter: AsyncStream<Void>.Continuation

    init() {
        (gate, opener) = AsyncStream.makeStream(of: Void.self)
        (started, starter) = AsyncStream.makeStream(of: Void.self)
    }

    deinit {
        opener.finish()
        starter.finish()
    }

    /// Lets every write through, now and later.
    func open() { opener.finish() }

    /// Makes the writes from now on fail (as a database that went away).
    func fail(_ failing: Bool) { state.withLock { $0.failing = failing } }

    /// Waits until a write has reached the gate.
    func firstWriteStarted() async {
        for await _ in started { return }
    }

    var stored: [ReceivedViewerEvent] { state.withLock { $0.stored } }
    /// Each write's number of events, in order.
    var writes: [Int] { state.withLock { $0.writes } }

    func appendViewerEvents(_ events: [ReceivedViewerEvent]) async throws(CatalogError) {
        starter.yield()
        for await _ in gate {}
        try state.withLock { state throws(CatalogError) in
            if state.failing { throw CatalogError(.unavailable, "the test's database went away") }
            state.stored += events
            state.writes.append(events.count)
        }
    }

    func viewerEvents(after: Int64, through: Int64, limit: Int) async throws(CatalogError) -> [StoredViewerEvent] {
        []
    }
    func deleteViewerEvents(receivedBefore: Int64) async throws(CatalogError) -> Int { 0 }
    func replaceVideoStats(_ stats: [VideoStats], rolledAt: Int64) async throws(CatalogError) {}
    func videoStats(video: String) async throws(CatalogError) -> VideoStats? { nil }
    func allVideoStats() async throws(CatalogError) -> [VideoStats] { [] }
}
