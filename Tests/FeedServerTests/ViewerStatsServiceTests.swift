import Catalog
import Foundation
import Hummingbird
import HummingbirdTesting
import Logging
import SQLiteCatalog
import Testing
import ViewerAnalytics

@testable import FeedServer

/// The roll-up on a real SQLite catalog: events past the retention go, the rest become each video's figures (with the
/// video's own length), and `GET /v1/videos/{id}/stats` answers with them.
@Suite(.timeLimit(.minutes(5))) struct ViewerStatsServiceTests {
    static func view(
        _ session: String, _ video: String, watched: Double, completed: Bool, startup: Int, at time: Int64
    ) -> [ReceivedViewerEvent] {
        [
            .viewStart(rendition: "360p", startupMilliseconds: startup),
            .progress(positionSeconds: watched / 2, watchedSeconds: watched / 2),
            .viewEnd(watchedSeconds: watched, completed: completed, bytes: 1_000_000),
        ].map { ReceivedViewerEvent(receivedAt: time, event: ViewerEvent(session: session, video: video, kind: $0)) }
    }

    @Test func eventsPastTheRetentionGoAndTheRestBecomeFigures() async throws {
        let rig = try ServerRig()
        try await rig.store.seed(count: 2, startingAt: 0, batch: 2)
        // v000000000 is 15 s long.
        let day: Int64 = 86_400_000
        let now: Int64 = 100 * day
        try await rig.store.appendViewerEvents(
            Self.view("old", "v000000000", watched: 1, completed: false, startup: 9_000, at: now - 8 * day)
                + Self.view("a", "v000000000", watched: 15, completed: true, startup: 300, at: now - day)
                + Self.view("b", "v000000000", watched: 6, completed: false, startup: 500, at: now - 1))
        let service = ViewerStatsService(
            log: rig.store, videos: rig.store, retention: .seconds(7 * 86_400), logger: Logger(label: "test"))
        let outcome = try await service.rollUp(now: now)
        #expect(outcome.deleted == 3 && outcome.events == 6 && outcome.videos == 1)
        let stats = try #require(try await rig.store.videoStats(video: "v000000000"))
        #expect(stats.views == 2 && stats.sessions == 2)
        #expect(stats.startupMedianMilliseconds == 300 && stats.startupP90Milliseconds == 500)
        #expect(stats.completionRate == 0.5)
        #expect(abs(stats.meanWatchedFraction - (1 + 6.0 / 15) / 2) < 1e-9)
        #expect(stats.retention.count == 16 && stats.retention[0] == 1 && stats.retention[7] == 0.5)
        // A second pass with nothing new gives the same figures; one after every event expired, none.
        try await service.rollUp(now: now)
        #expect(try await rig.store.videoStats(video: "v000000000") == stats)
        try await service.rollUp(now: now + 8 * day)
        #expect(try await rig.store.allVideoStats().isEmpty)
    }

    /// Passes of one running service read only what arrived since the last, and store what a fresh server's first
    /// pass (which reads every event kept) would store, while old events expire underneath.
    @Test func eachPassReadsOnlyNewEventsAndStoresWhatAFreshPassWould() async throws {
        let rig = try ServerRig()
        try await rig.store.seed(count: 3, startingAt: 0, batch: 3)
        let day: Int64 = 86_400_000
        let running = ViewerStatsService(
            log: rig.store, videos: rig.store, retention: .seconds(86_400), logger: Logger(label: "test"))
        var now: Int64 = 10 * day
        var expired = 0
        for round in 0..<8 {
            var events: [ReceivedViewerEvent] = []
            for viewer in 0..<4 {
                let video = "v00000000\((round + viewer) % 3)"
                let watched = Double(3 + viewer + round)
                let at: Int64 = now - day / 2 + Int64(viewer)
                events += Self.view(
                    "r\(round)s\(viewer)", video, watched: watched, completed: viewer == 0,
                    startup: 100 * (viewer + 1), at: at)
            }
            try await rig.store.appendViewerEvents(events)
            now += day / 4
            let outcome = try await running.rollUp(now: now)
            #expect(outcome.events == events.count, "round \(round) read only its own events")
            expired += outcome.deleted
            let kept = try await rig.store.allVideoStats()
            try await ViewerStatsService(
                log: rig.store, videos: rig.store, retention: .seconds(86_400), logger: Logger(label: "test")
            ).rollUp(now: now)
            #expect(try await rig.store.allVideoStats() == kept, "round \(round)")
            #expect(!kept.isEmpty)
        }
        #expect(expired > 0, "old rounds expired along the way")
    }

    @Test func theStatsRouteAnswersForPublishedVideosOnly() async throws {
        let rig = try ServerRig()
        try await rig.store.seed(count: 2, startingAt: 0, batch: 2)
        var server = rig.server
        server.viewerEvents = ViewerEventIngest(log: rig.store)
        try await rig.store.appendViewerEvents(
            Self.view("a", "v000000001", watched: 4, completed: false, startup: 250, at: 1))
        try await ViewerStatsService(
            log: rig.store, videos: rig.store, retention: .seconds(86_400), logger: Logger(label: "test")
        ).rollUp(now: 2)
        try await Application(router: server.router()).test(.router) { client in
            let viewed = try await client.execute(uri: "/v1/videos/v000000001/stats", method: .get)
            #expect(viewed.status == .ok)
            let stats = try JSONDecoder().decode(VideoStats.self, from: Data(String(buffer: viewed.body).utf8))
            #expect(stats.views == 1 && stats.startupMedianMilliseconds == 250)
            let unseen = try await client.execute(uri: "/v1/videos/v000000000/stats", method: .get)
            #expect(unseen.status == .ok)
            let empty = try JSONDecoder().decode(VideoStats.self, from: Data(String(buffer: unseen.body).utf8))
            #expect(empty.views == 0 && empty.startupMedianMilliseconds == nil && empty.retention.isEmpty)
            let missing = try await client.execute(uri: "/v1/videos/nope/stats", method: .get)
            #expect(missing.status == .notFound)
        }
    }
}
