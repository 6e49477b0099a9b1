import Catalog
import SQLiteCatalog
import Testing
import ViewerAnalytics

/// `ViewerEventLog` on every engine: events read back as they were stored, in order, page by page; retention deletes
/// by the time received; figures are replaced whole.
@Suite(.timeLimit(.minutes(10))) struct ViewerEventLogConformanceTests {
    static let kinds: [ViewerEvent.Kind] = [
        .viewStart(rendition: "360p", startupMilliseconds: 412),
        .stall(milliseconds: 1500),
        .progress(positionSeconds: 3.25, watchedSeconds: 3.5),
        .segment(bytes: 181_234, milliseconds: 95),
        .viewEnd(watchedSeconds: 14.75, completed: true, bytes: 10_000_000_000),
        .error(message: "MEDIA_ERR_DECODE: «bad» frame"),
    ]

    @Test(arguments: CatalogEngine.allCases)
    func everyKindReadsBackInOrderPageByPage(engine: CatalogEngine) async throws {
        try await engine.withStore { store in
            #expect(try await store.viewerEvents(after: 0, limit: 10).isEmpty)
            let events = Self.kinds.enumerated().map { index, kind in
                ReceivedViewerEvent(
                    receivedAt: 1_000 + Int64(index),
                    event: ViewerEvent(
                        session: "tab-\(index % 2)", video: index == 5 ? nil : "v\(index)", kind: kind))
            }
            try await store.appendViewerEvents(Array(events[..<4]))
            try await store.appendViewerEvents([])
            try await store.appendViewerEvents(Array(events[4...]))
            let first = try await store.viewerEvents(after: 0, limit: 4)
            #expect(first.map(\.event) == events[..<4].map(\.event))
            #expect(first.map(\.receivedAt) == [1_000, 1_001, 1_002, 1_003])
            #expect(zip(first, first.dropFirst()).allSatisfy { $0.id < $1.id })
            let rest = try await store.viewerEvents(after: try #require(first.last).id, limit: 100)
            #expect(rest.map(\.event) == events[4...].map(\.event))
            #expect(try await store.viewerEvents(after: try #require(rest.last).id, limit: 100).isEmpty)
        }
    }

    /// A group commit's worth: more rows than one PostgreSQL statement takes.
    @Test(arguments: CatalogEngine.allCases)
    func aLargeGroupIsStoredWhole(engine: CatalogEngine) async throws {
        try await engine.withStore { store in
            let events = (0..<5_000).map { index in
                ReceivedViewerEvent(
                    receivedAt: Int64(index),
                    event: ViewerEvent(
                        session: "s\(index % 7)", video: "v\(index % 13)",
                        kind: .segment(bytes: index + 1, milliseconds: index % 900 + 1)))
            }
            try await store.appendViewerEvents(events)
            var read: [StoredViewerEvent] = []
            while true {
                let page = try await store.viewerEvents(after: read.last?.id ?? 0, limit: 1_200)
                if page.isEmpty { break }
                read += page
            }
            #expect(read.map(\.event) == events.map(\.event))
        }
    }

    @Test(arguments: CatalogEngine.allCases)
    func retentionDeletesByTheTimeReceivedAndIdsAreNeverReused(engine: CatalogEngine) async throws {
        try await engine.withStore { store in
            let old = ViewerEvent(session: "a", video: "v1", kind: .stall(milliseconds: 10))
            let new = ViewerEvent(session: "b", video: "v1", kind: .stall(milliseconds: 20))
            try await store.appendViewerEvents([
                ReceivedViewerEvent(receivedAt: 100, event: old), ReceivedViewerEvent(receivedAt: 200, event: new),
            ])
            let before = try await store.viewerEvents(after: 0, limit: 10)
            #expect(try await store.deleteViewerEvents(receivedBefore: 200) == 1)
            #expect(try await store.deleteViewerEvents(receivedBefore: 200) == 0)
            #expect(try await store.viewerEvents(after: 0, limit: 10).map(\.event) == [new])
            try await store.appendViewerEvents([ReceivedViewerEvent(receivedAt: 300, event: old)])
            #expect(try await store.deleteViewerEvents(receivedBefore: 1_000) == 2)
            try await store.appendViewerEvents([ReceivedViewerEvent(receivedAt: 400, event: old)])
            let after = try await store.viewerEvents(after: 0, limit: 10)
            #expect(after.count == 1 && after[0].id > (before.map(\.id).max() ?? 0) + 1)
        }
    }

    @Test(arguments: CatalogEngine.allCases)
    func figuresAreReplacedWhole(engine: CatalogEngine) async throws {
        try await engine.withStore { store in
            func stats(_ video: String, views: Int) -> VideoStats {
                VideoStats(
                    video: video, views: views, sessions: views, startupMedianMilliseconds: views > 1 ? 300 : nil,
                    startupP90Milliseconds: 900, rebufferRatio: 0.125, meanWatchedFraction: 0.6,
                    completionRate: 0.5, bytesPerView: 1.5e6, retention: [1, 0.75, 0.5])
            }
            #expect(try await store.videoStats(video: "v1") == nil)
            try await store.replaceVideoStats([stats("v2", views: 1), stats("v1", views: 4)], rolledAt: 10)
            #expect(try await store.videoStats(video: "v1") == stats("v1", views: 4))
            #expect(try await store.allVideoStats() == [stats("v1", views: 4), stats("v2", views: 1)])
            try await store.replaceVideoStats([stats("v2", views: 5)], rolledAt: 20)
            #expect(try await store.videoStats(video: "v1") == nil)
            #expect(try await store.allVideoStats() == [stats("v2", views: 5)])
        }
    }
}
