import Catalog
import Foundation
import MediaFixtures
import SQLiteCatalog
import Testing
import ViewerAnalytics

/// `reel simulate` fed by a catalog's viewer events: `--replay` predicts each stored session, `--network-from` makes
/// a trace of each session's fetches, `--retention-from` gives the videos their measured retention.
@Suite(.timeLimit(.minutes(5))) struct SimulateViewerEventsTests {
    /// Ten seeded videos and three sessions: each watches three videos, fetching a small init and 300 KB segments
    /// at the session's own speed; the slowest stalls twice. Every view but the last of each session ends within 2 s,
    /// so the measured retention falls to 1/3 by second 3.
    static func catalog(in directory: TemporaryDirectory) async throws -> String {
        let path = directory.file("catalog.sqlite")
        let store = SQLiteCatalogEngine(database: try SQLiteCatalogDatabase(path: path))
        try await store.seed(count: 10)
        var events: [ReceivedViewerEvent] = []
        func add(_ session: String, _ video: String?, _ kind: ViewerEvent.Kind) {
            events.append(
                ReceivedViewerEvent(receivedAt: 1_000, event: ViewerEvent(session: session, video: video, kind: kind)))
        }
        for (number, kbps) in [(0, 8_000), (1, 3_000), (2, 600)].map({ ($0.0, $0.1) }) {
            let session = "tab\(number)"
            for (index, video) in ["v000000009", "v000000008", "v000000007"].enumerated() {
                add(session, video, .segment(bytes: 1_200, milliseconds: 40))
                add(session, video, .segment(bytes: 300_000, milliseconds: 40 + 300_000 * 8 / kbps))
                add(session, video, .viewStart(rendition: "360p", startupMilliseconds: 100 + 400 * number + 50 * index))
                if number == 2 { add(session, video, .stall(milliseconds: 900)) }
                let watched = index == 2 ? 15.0 : 1.5
                add(session, video, .viewEnd(watchedSeconds: watched, completed: index == 2, bytes: 301_200))
            }
        }
        try await store.appendViewerEvents(events)
        var rollup = ViewerStatsRollup()
        rollup.add(events.map(\.event))
        let stats = rollup.stats(durationSeconds: ["v000000009": 15, "v000000008": 15, "v000000007": 15])
        try await store.replaceVideoStats(stats.values.sorted { $0.video < $1.video }, rolledAt: 2_000)
        return path
    }

    static func json(_ text: String) -> [String: Any] {
        (try? JSONSerialization.jsonObject(with: Data(text.utf8))) as? [String: Any] ?? [:]
    }

    @Test func replayPredictsEachSessionAndReportsTheError() async throws {
        let directory = try TemporaryDirectory()
        let catalog = try await Self.catalog(in: directory)
        let run = try await ReelProcess.run(["simulate", "--replay", catalog, "--json"])
        #expect(run.status == 0, "\(run.stderr)")
        let report = Self.json(run.stdout)
        #expect(report["sessions"] as? Int == 3 && report["views"] as? Int == 9, "\(run.stdout)")
        #expect(report["stalls_measured"] as? Int == 3)
        #expect(report["startup_measured_median_ms"] as? Int == 550)
        #expect(report["startup_median_abs_error_ms"] is Int && report["stall_agreement"] is Double)
        #expect(report["stall_count_agreement"] is Double)
        let sessions = report["per_session"] as? [[String: Any]] ?? []
        #expect(sessions.map { $0["name"] as? String } == ["tab0", "tab1", "tab2"])
        // The slowest link predicts the slowest starts.
        let predicted = sessions.map { session in
            ((session["views"] as? [[String: Any]]) ?? []).compactMap { $0["predicted_startup_ms"] as? Int }.reduce(
                0, +)
        }
        #expect(predicted[2] > predicted[0], "\(predicted)")
        let text = try await ReelProcess.run(["simulate", "--replay", catalog])
        #expect(text.stdout.hasPrefix("replayed 3 sessions, 9 views"), "\(text.stdout)")
    }

    @Test func tracesAndRetentionComeFromTheEvents() async throws {
        let directory = try TemporaryDirectory()
        let catalog = try await Self.catalog(in: directory)
        let measured = try await ReelProcess.run([
            "simulate", "--network-from", catalog, "--feed-catalog", catalog, "--retention-from", catalog,
            "--users", "20", "--json",
        ])
        #expect(measured.status == 0, "\(measured.stderr)")
        let whole = try await ReelProcess.run([
            "simulate", "--network-from", catalog, "--feed-catalog", catalog, "--users", "20", "--json",
        ])
        #expect(whole.status == 0, "\(whole.stderr)")
        // One trace per session, twenty users on each.
        #expect(Self.json(measured.stdout)["sessions"] as? Int == 60, "\(measured.stdout)")
        // The measured viewers of the two newest videos all left between 1 and 2 s into them: each user-session
        // watches about 26 s less of those two than users who, without curves, watch every video whole.
        let watchedMeasured = Self.json(measured.stdout)["watch_ms"] as? Int ?? 0
        let watchedWhole = Self.json(whole.stdout)["watch_ms"] as? Int ?? 0
        #expect(
            watchedMeasured > 0 && watchedWhole - watchedMeasured >= 60 * 20_000,
            "\(watchedMeasured) vs \(watchedWhole)")
    }

    @Test func theOptionsSayWhatGoesWithWhat() async throws {
        let directory = try TemporaryDirectory()
        let catalog = try await Self.catalog(in: directory)
        let both = try await ReelProcess.run(["simulate", "--replay", catalog, "--network", "/tmp"])
        #expect(
            both.status != 0 && both.stderr.contains("--replay takes its videos, sessions and traces"), "\(both.stderr)"
        )
        let loose = try await ReelProcess.run([
            "simulate", "--network-from", catalog, "--catalog", "/tmp", "--retention-from", catalog,
        ])
        #expect(
            loose.status != 0 && loose.stderr.contains("--retention-from goes with --feed-catalog"), "\(loose.stderr)")
        let empty = SQLiteCatalogEngine(database: try SQLiteCatalogDatabase(path: directory.file("empty.sqlite")))
        try await empty.seed(count: 2)
        let nothing = try await ReelProcess.run(["simulate", "--replay", directory.file("empty.sqlite")])
        #expect(nothing.status != 0 && nothing.stderr.contains("no session to replay"), "\(nothing.stderr)")
    }
}
