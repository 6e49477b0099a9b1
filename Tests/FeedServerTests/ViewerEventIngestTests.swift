import Catalog
import Deadlines
import SQLiteCatalog
import Testing
import ViewerAnalytics

@testable import FeedServer

/// Group commit: batches that arrive during a write, or within the spacing after one started, go together in the next
/// one, each caller returns only after its events are committed, a failed write fails exactly its group, and a full
/// queue refuses at once.
@Suite(.timeLimit(.minutes(2))) struct ViewerEventIngestTests {
    static func batch(_ session: String, _ count: Int) -> [ReceivedViewerEvent] {
        (0..<count).map { index in
            ReceivedViewerEvent(
                receivedAt: Int64(index),
                event: ViewerEvent(session: session, video: "v1", kind: .segment(bytes: index + 1, milliseconds: 10)))
        }
    }

    /// Waits (30 s at most) until `ingest` holds `count` events waiting.
    static func waitUntil(_ ingest: ViewerEventIngest, holds count: Int) async throws {
        try await withDeadline(.seconds(30), "\(count) events waiting behind the held write") {
            while await ingest.waitingCount < count { try await Task.sleep(for: .milliseconds(2)) }
        }
    }

    static func firstWrite(_ log: GatedEventLog) async throws {
        try await withDeadline(.seconds(30), "the first write to reach the gate") { await log.firstWriteStarted() }
    }

    @Test func batchesThatArriveDuringAWriteGoTogetherInTheNext() async throws {
        let log = GatedEventLog()
        let ingest = ViewerEventIngest(log: log)
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await ingest.commit(Self.batch("first", 3)) }
            try await Self.firstWrite(log)
            for index in 0..<20 {
                group.addTask { try await ingest.commit(Self.batch("s\(index)", 5)) }
            }
            // All twenty are queued behind the held write before it is let go.
            try await Self.waitUntil(ingest, holds: 100)
            log.open()
            try await group.waitForAll()
        }
        #expect(log.writes == [3, 100])
        #expect(await ingest.committedGroups == 2)
        #expect(await ingest.committedEvents == 103)
        // Each batch's events stay together and in order.
        let stored = log.stored.map(\.event)
        for index in 0..<20 {
            let mine = stored.filter { $0.session == "s\(index)" }
            #expect(mine == Self.batch("s\(index)", 5).map(\.event))
        }
    }

    /// Writes start `spacing` apart: a first write, or one after a quiet spell, starts at once.
    @Test func theNextWriteWaitsOnlyForWhatIsLeftOfTheSpacing() {
        let spacing = Duration.milliseconds(10)
        #expect(ViewerEventIngest.delay(sinceLastStart: nil, spacing: spacing) == .zero)
        for elapsed in stride(from: -3, through: 25, by: 1) {
            let delay = ViewerEventIngest.delay(sinceLastStart: .milliseconds(elapsed), spacing: spacing)
            #expect(delay == (elapsed >= 10 ? .zero : .milliseconds(10 - max(0, elapsed))), "\(elapsed) ms")
        }
        #expect(ViewerEventIngest.delay(sinceLastStart: .milliseconds(3), spacing: .zero) == .zero)
    }

    /// Without any write held, batches that arrive within the spacing after a write started wait for the next write
    /// and go in it together. The spacing is long, so the twenty are queued before it ends however slow the machine.
    @Test func batchesWithinTheSpacingGoTogetherWithoutAHeldWrite() async throws {
        let log = GatedEventLog()
        log.open()
        let ingest = ViewerEventIngest(log: log, spacing: .seconds(10))
        try await ingest.commit(Self.batch("first", 3))
        try await withThrowingTaskGroup(of: Void.self) { group in
            for index in 0..<20 {
                group.addTask { try await ingest.commit(Self.batch("s\(index)", 5)) }
            }
            try await Self.waitUntil(ingest, holds: 100)
            try await group.waitForAll()
        }
        #expect(log.writes == [3, 100])
        #expect(await ingest.committedGroups == 2)
    }

    @Test func aFailedWriteFailsItsGroupAndTheNextGroupIsStored() async throws {
        let log = GatedEventLog()
        let ingest = ViewerEventIngest(log: log)
        log.fail(true)
        log.open()
        await #expect(throws: CatalogError.self) { try await ingest.commit(Self.batch("lost", 2)) }
        log.fail(false)
        try await ingest.commit(Self.batch("kept", 2))
        #expect(log.stored.map(\.event.session) == ["kept", "kept"])
    }

    @Test func aFullQueueRefusesAtOnceAndSaysHowFull() async throws {
        let log = GatedEventLog()
        let ingest = ViewerEventIngest(log: log, maximumWaiting: 10)
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await ingest.commit(Self.batch("held", 4)) }
            try await Self.firstWrite(log)
            group.addTask { try await ingest.commit(Self.batch("queued", 8)) }
            try await Self.waitUntil(ingest, holds: 8)
            await #expect(throws: ViewerEventIngest.Refusal.queueFull(waiting: 8, limit: 10)) {
                try await ingest.commit(Self.batch("refused", 3))
            }
            group.addTask { try await ingest.commit(Self.batch("fits", 2)) }
            try await Self.waitUntil(ingest, holds: 10)
            log.open()
            try await group.waitForAll()
        }
        #expect(log.writes == [4, 10])
    }
}
