import Catalog
import Foundation
import MediaFixtures
import SQLiteCatalog
import TestServers
import Testing
import ViewerAnalytics

#if canImport(Glibc)
import Glibc
#endif

/// The web client's viewer events, end to end. Chromium runs in a network namespace of its own whose link tc shapes,
/// and plays one session against `reel serve` (`Tests/Browser/feed_browser.py --events`): a view watched to its
/// loop, a stall made by cutting the link to a trickle, an item that cannot play, and a view ended by leaving the
/// page. What the page sent is read back from the catalog and from `GET /v1/videos/{id}/stats`.
@Suite(.serialized, .timeLimit(.minutes(10))) struct ViewerEventsBrowserTests {
    static let linkKbps = 2000

    @Test func aShapedSessionsEventsReachTheCatalogAndTheStats() async throws {
        let directory = try TemporaryDirectory()
        try await WebClientBrowserTests.makeLibrary(in: directory, videos: 8, withoutPlaylist: 3)
        let vendor = WebClientBrowserTests.packageRoot.appendingPathComponent(".build/vendor")
        try #require(
            FileManager.default.fileExists(atPath: vendor.appendingPathComponent("hls.mjs").path),
            "hls.js is missing: scripts/install-deps.sh test runs scripts/fetch-hlsjs.py")
        let hosts = try await NetworkHosts.make(count: 1)
        do {
            try await session(in: directory, hosts: hosts, vendor: vendor)
        } catch {
            try? await hosts.close()
            throw error
        }
        try await hosts.close()
    }

    func session(in directory: TemporaryDirectory, hosts: NetworkHosts, vendor: URL) async throws {
        let viewer = hosts.hosts[0]
        let root = hosts.rootAddress
        let catalog = directory.file("catalog.sqlite")
        // hls.js from another origin, as from a CDN; both servers on the root address, which the viewer reaches.
        let files = try ChildProcess([
            "/usr/bin/env", "python3",
            WebClientBrowserTests.browserFolder.appendingPathComponent("cors_file_server.py").path, vendor.path, root,
        ])
        try await withProcesses([files]) {
            #expect(
                await listens(files, prefix: "listening on http://\(root):"),
                "the hls.js file server never said it was listening: \(files.stderr)")
            let server = try ChildProcess([
                ReelProcess.executable, "serve", "--database", catalog, "--library", directory.file("library"),
                "--host", root, "--port", "0", "--stats-interval", "1",
                "--hls-js-url", WebClientBrowserTests.listeningURL(files) + "/hls.mjs",
            ])
            try await withProcesses([server]) {
                #expect(
                    await listens(server, prefix: "listening on http://\(root):"),
                    "reel serve never said it was listening: \(server.stderr)")
                let base = WebClientBrowserTests.listeningURL(server)
                try await check(base: base, catalog: catalog, hosts: hosts, viewer: viewer, server: server)
            }
        }
    }

    func check(
        base: String, catalog: String, hosts: NetworkHosts, viewer: NetworkHost, server: ChildProcess
    ) async throws {
        let out = WebClientBrowserTests.packageRoot.appendingPathComponent(".build/web-client/events").path
        let driver = try hosts.run(
            viewer, "/usr/bin/timeout",
            [
                "300", "python3", WebClientBrowserTests.driver, "--url", base, "--out", out, "--events",
                "--engine", "hls.js", "--page-size", "5", "--shape-device", viewer.rootInterface,
                "--shape-netns", "/proc/\(getpid())/ns/net", "--rate", "\(Self.linkKbps)kbit", "--slow-rate", "24kbit",
            ])
        let status = try await driver.exit(within: .seconds(330))
        let report = try #require(
            try JSONSerialization.jsonObject(with: Data(driver.stdout.utf8)) as? [String: Any],
            "no report: \(driver.stdout) \(driver.stderr)")
        #expect(status == 0 && report["harnessError"] == nil, "\(report["harnessError"] ?? driver.stderr)")
        #expect(report["engine"] as? String == "hls.js")
        #expect((report["console"] as? [Any])?.isEmpty == true, "\(report["console"] ?? "")")
        // The page sent every event it recorded: none refused by the route, none dropped from its queue.
        let counts = try #require(report["eventsBeforeLeaving"] as? [String: Any])
        #expect(counts["refused"] as? Int == 0 && counts["dropped"] as? Int == 0, "\(counts)")
        #expect((counts["sent"] as? Int ?? 0) > 0, "\(counts)")

        // The view ended by leaving the page came by a keepalive fetch, after the driver was gone.
        let store = SQLiteCatalogEngine(database: try SQLiteCatalogDatabase(path: catalog))
        var stored: [StoredViewerEvent] = []
        let beaconed = try await ChildProcess.suspendUntil(seconds: 30) {
            stored = try await store.viewerEvents(after: 0, limit: 10_000)
            return stored.contains { $0.event.video == "web004" && $0.event.kind.isViewEnd }
        }
        #expect(beaconed, "no view end for web004: \(stored.map(\.event))")
        let events = stored.map(\.event)
        // One tab, one anonymous session: the one the server issued it, which the page reported.
        #expect(Set(events.map(\.session)).count == 1, "one tab, one anonymous session")
        let reportedSession = (report["eventsBeforeLeaving"] as? [String: Any])?["session"] as? String
        #expect(
            events.first?.session == reportedSession && reportedSession?.count == 32, "\(reportedSession ?? "none")")

        // Item 1, watched to its loop: one view, started at a named rung, completed, with its segments' bytes.
        let first = events.filter { $0.video == "web000" }
        let starts = first.compactMap { event -> (String, Int)? in
            guard case let .viewStart(rendition, startup) = event.kind else { return nil }
            return (rendition, startup)
        }
        #expect(starts.count == 1 && starts.allSatisfy { $0.0.hasSuffix("p") && $0.1 > 0 }, "\(starts)")
        let ends = stored.filter { $0.event.video == "web000" && $0.event.kind.isViewEnd }
        let end = try #require(ends.first, "\(first)")
        guard case let .viewEnd(watched, completed, bytes) = end.event.kind else {
            Issue.record("not a view end: \(end)")
            return
        }
        #expect(ends.count == 1 && completed && watched >= 7, "\(end)")
        let segmentBytes = stored.filter { $0.event.video == "web000" && $0.id < end.id }
            .compactMap { event -> Int? in
                guard case let .segment(bytes, _) = event.event.kind else { return nil }
                return bytes
            }
        #expect(!segmentBytes.isEmpty && segmentBytes.reduce(0, +) == bytes, "\(segmentBytes) vs \(bytes)")

        // Item 2 stalled for about as long as the link stayed a trickle, and one of its segments was fetched at
        // far below the link's rate: the throughput samples see the shaping.
        let stalls = events.compactMap { event -> Int? in
            guard event.video == "web001", case let .stall(milliseconds) = event.kind else { return nil }
            return milliseconds
        }
        #expect(stalls.count >= 1 && stalls.max() ?? 0 >= 1500, "\(stalls) \(report["stalled"] ?? "")")
        let samples = events.compactMap { event -> Double? in
            guard event.video == "web001", case let .segment(bytes, milliseconds) = event.kind else { return nil }
            return Double(bytes) * 8 / Double(milliseconds)  // kbit/s
        }
        #expect(samples.contains { $0 < Double(Self.linkKbps) / 2 }, "\(samples)")
        #expect(events.allSatisfy { !$0.kind.isSegment || $0.kind.hasPositiveSample })

        // Item 4 cannot play: its error names it. The timer's batches carried progress.
        #expect(events.contains { $0.video == "web003" && $0.kind.isError }, "\(events.filter(\.kind.isError))")
        #expect(events.contains { $0.kind.isProgress })

        // The figures, rolled up each second, count both views and the stall.
        var body = ""
        var figures: [String: Any] = [:]
        let rolled = try await ChildProcess.suspendUntil(seconds: 30) {
            (body, figures) = try await Self.figures(base, video: "web001")
            return (figures["rebuffer_ratio"] as? Double ?? 0) > 0
        }
        #expect(rolled, "\(body) \(server.stderr.suffix(2000))")
        #expect(figures["views"] as? Int == 1 && figures["sessions"] as? Int == 1, "\(body)")
        #expect(figures["startup_median_ms"] as? Int != nil, "\(body)")
        #expect(!(figures["retention"] as? [Double] ?? []).isEmpty, "\(body)")
        let (firstBody, firstStats) = try await Self.figures(base, video: "web000")
        #expect(firstStats["views"] as? Int == 1 && firstStats["completion_rate"] as? Double == 1, "\(firstBody)")
    }

    /// `GET /v1/videos/{video}/stats`: the body, and its JSON object (empty when it is not one).
    static func figures(_ base: String, video: String) async throws -> (body: String, json: [String: Any]) {
        let fetched = try await ChildProcess.run([
            "/usr/bin/curl", "-s", "--max-time", "10", base + "/v1/videos/\(video)/stats",
        ])
        let json = (try? JSONSerialization.jsonObject(with: Data(fetched.stdout.utf8))) as? [String: Any]
        return (fetched.stdout, json ?? [:])
    }
}

extension ViewerEventsBrowserTests {
    /// `/stats` draws what `GET /v1/videos/{id}/stats` says: 40 views posted to the route (startups spread from
    /// 120 ms to 9 s, watched from 0.4 s to the end) give a retention step curve with a point per second and a
    /// histogram bar per bucket, as tall as its views; a video with no views says so. The screenshot of the first is
    /// docs/analytics.md's.
    @Test func theStatsPageDrawsTheRetentionCurveAndTheStartupHistogram() async throws {
        let directory = try TemporaryDirectory()
        try await WebClientBrowserTests.makeLibrary(in: directory, videos: 3)
        let server = try ChildProcess([
            ReelProcess.executable, "serve", "--database", directory.file("catalog.sqlite"),
            "--library", directory.file("library"), "--port", "0", "--stats-interval", "1",
        ])
        try await withProcesses([server]) {
            #expect(await listens(server), "reel serve never said it was listening: \(server.stderr)")
            let base = WebClientBrowserTests.listeningURL(server)
            let views = 40
            var events: [String] = []
            for view in 0..<views {
                let startup = [120, 180, 260, 340, 420, 610, 800, 1300, 2600, 9000][view % 10] + view
                let watched = min(8.0, 0.4 + Double(view * view % 97) / 10)
                events.append(
                    #"{"type":"view_start","video":"web000","rendition":"360p","startup_ms":\#(startup)}"#
                )
                if view % 4 == 0 {
                    events.append(#"{"type":"stall","video":"web000","duration_ms":700}"#)
                }
                events.append(
                    #"{"type":"view_end","video":"web000","watched_s":\#(watched),"completed":\#(watched >= 8),"bytes":150000}"#
                )
            }
            // One session per batch, as one tab's: its views one after another.
            for (index, start) in stride(from: 0, to: events.count, by: 100).enumerated() {
                let batch = events[start..<min(events.count, start + 100)]
                let file = try directory.write("batch\(index).json", text: "[" + batch.joined(separator: ",") + "]")
                let token = try await ViewerSessionClient.token(base)
                let posted = try await ViewerSessionClient.post("@" + file, token: token, to: base)
                #expect(posted == "204", "batch \(index): \(posted)")
            }
            var figures: [String: Any] = [:]
            let rolled = try await ChildProcess.suspendUntil(seconds: 30) {
                figures = try await Self.figures(base, video: "web000").json
                return figures["views"] as? Int == views
            }
            try #require(rolled, "\(figures) \(server.stderr.suffix(2000))")

            let out = WebClientBrowserTests.packageRoot.appendingPathComponent(".build/web-client/stats").path
            let run = try await ChildProcess.run(
                [
                    "/usr/bin/timeout", "120", "python3", WebClientBrowserTests.driver, "--url", base, "--out", out,
                    "--stats-videos", "web000,web001",
                ], within: .seconds(150))
            let report = try #require(
                try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any],
                "no report: \(run.stdout) \(run.stderr)")
            #expect(run.status == 0 && report["harnessError"] == nil, "\(report["harnessError"] ?? run.stderr)")
            #expect((report["console"] as? [Any])?.isEmpty == true, "\(report["console"] ?? "")")
            let pages = try #require(report["pages"] as? [String: [String: Any]])
            let viewed = try #require(pages["web000"])
            let retention = try #require(figures["retention"] as? [Double])
            // A step curve: a point at each second and one at each step down.
            #expect(viewed["curveSeconds"] as? Int == retention.count, "\(viewed)")
            #expect(viewed["curvePoints"] as? Int == 2 * retention.count - 1, "\(viewed)")
            let histogram = try #require(figures["startup_histogram"] as? [[String: Any]])
            let bars = try #require(viewed["bars"] as? [[String: Any]])
            #expect(bars.map { $0["views"] as? Int } == histogram.map { $0["views"] as? Int }, "\(bars) \(histogram)")
            #expect(bars.compactMap { $0["views"] as? Int }.reduce(0, +) == views)
            // Bars are as tall as their views: more views, a taller bar; as many, as tall.
            let heights = bars.map { ($0["views"] as? Int ?? 0, $0["height"] as? Double ?? -1) }
            for a in heights {
                for b in heights { #expect((a.0 < b.0) == (a.1 < b.1) && (a.0 == b.0) == (a.1 == b.1), "\(heights)") }
            }
            let shown = viewed["figures"] as? [String: String] ?? [:]
            #expect(shown["Views"] == "40", "\(shown)")
            #expect((viewed["status"] as? String)?.isEmpty == true, "\(viewed)")
            #expect(viewed["options"] as? Int == 3 && viewed["selected"] as? String == "web000")
            let unviewed = try #require(pages["web001"])
            #expect((unviewed["status"] as? String ?? "").hasPrefix("No views yet"), "\(unviewed)")
            #expect(unviewed["curvePoints"] as? Int == 0)
            let shot = try #require(viewed["screenshot"] as? String)
            #expect(try WebClientBrowserTests.pngSize(shot) == (760, 900))
        }
    }
}

extension ViewerEvent.Kind {
    fileprivate var isViewEnd: Bool {
        if case .viewEnd = self { return true }
        return false
    }

    fileprivate var isSegment: Bool {
        if case .segment = self { return true }
        return false
    }

    fileprivate var hasPositiveSample: Bool {
        if case let .segment(bytes, milliseconds) = self { return bytes > 0 && milliseconds > 0 }
        return false
    }

    fileprivate var isError: Bool {
        if case .error = self { return true }
        return false
    }

    fileprivate var isProgress: Bool {
        if case .progress = self { return true }
        return false
    }
}
