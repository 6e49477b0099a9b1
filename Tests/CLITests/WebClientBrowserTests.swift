import Catalog
import Deadlines
import Foundation
import MediaFixtures
import SQLiteCatalog
import Testing
import Transcode
import ViewerAnalytics

/// The web client at `/`, in Debian's Chromium, against a real `reel serve` over a library of generated clips.
/// `Tests/Browser/feed_browser.py` drives the page (touch swipe, arrow keys, wheel) and reports what it saw;
/// the expectations are here. The screenshots land in `.build/web-client/`.
@Suite(.serialized, .timeLimit(.minutes(15))) struct WebClientBrowserTests {
    static let pageSize = 5
    static let videos = 12

    /// Native HLS with the default pool of 3, and hls.js (served from another origin, as from a CDN) with 4.
    @Test(arguments: [(3, "native"), (4, "hls.js")])
    func theFeedPlaysSwipesPrefetchesAndPagesInChromium(players: Int, engine: String) async throws {
        let directory = try TemporaryDirectory()
        try await Self.makeLibrary(in: directory, videos: Self.videos)
        var serveArguments = [
            "serve", "--database", directory.file("catalog.sqlite"), "--library", directory.file("library"),
            "--port", "0",
        ]
        var hlsJSServer: ChildProcess?
        if engine == "hls.js" {
            let files = try Self.hlsJSFileServer()
            hlsJSServer = files
            #expect(
                await listens(files, prefix: "listening on "),
                "the hls.js file server never said it was listening: \(files.stderr)")
            serveArguments += ["--hls-js-url", Self.listeningURL(files) + "/hls.mjs"]
        }
        let server = try ChildProcess([ReelProcess.executable] + serveArguments)
        try await withProcesses([server, hlsJSServer]) {
            #expect(await listens(server), "reel serve never said it was listening: \(server.stderr)")
            let base = Self.listeningURL(server)
            let out = Self.packageRoot.appendingPathComponent(".build/web-client/\(engine)-\(players)-players").path
            let run = try await ChildProcess.run(
                [
                    "/usr/bin/timeout", "240", "python3", Self.driver, "--url", base, "--out", out,
                    "--players", String(players), "--page-size", String(Self.pageSize),
                    "--engine", engine == "native" ? "auto" : engine,
                ], within: .seconds(270))
            let report = try #require(
                try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any],
                "no report: \(run.stdout) \(run.stderr)")
            #expect(run.status == 0 && report["harnessError"] == nil, "\(report["harnessError"] ?? run.stderr)")

            // The first video plays, and its poster was on screen before that frame. How soon is measured by
            // scripts/bench-startup.sh, never asserted here: a 2 s bound failed at 3.3 s in a loaded clean-clone run.
            #expect(report["engine"] as? String == engine)
            let firstFrame = try #require(report["firstFrameMs"] as? Int)
            let poster = try #require(report["posterShownMs"] as? Int)
            #expect(poster < firstFrame)

            // Muted until the viewer taps; the tap turns the sound on and the video plays on.
            #expect(report["mutedBeforeTap"] as? Bool == true)
            let tap = try #require(report["afterTap"] as? [String: Any])
            #expect(tap["muted"] as? Bool == false)
            #expect((tap["current"] as? [String: Any])?["state"] as? String == "playing", "\(tap)")

            // Before the swipe the next item was already buffered in a pool player; after it, that item played at once,
            // and the previous one kept its player and its buffer.
            let before = try #require(report["beforeSwipe"] as? [String: Any])
            let next = try #require(before["next"] as? [String: Any])
            #expect((next["bufferedSeconds"] as? Double ?? 0) >= 1, "\(next)")
            #expect(next["readyState"] as? Int ?? 0 >= 3, "\(next)")
            if engine == "hls.js" {
                // hls.js keeps a neighbour to the window's 3 s, which is two 2 s segments here; the current item gets more.
                #expect((next["bufferedSeconds"] as? Double ?? 99) <= 4.5, "\(next)")
            }
            let swipe = try #require(report["swipe"] as? [String: Any])
            // It started from the buffer checked above (how soon is the startup bench's to measure).
            #expect(swipe["startupMs"] as? Int != nil, "\(swipe)")
            let after = try #require(report["afterSwipe"] as? [String: Any])
            let previous = try #require(
                after["previous"] as? [String: Any], "the previous item lost its player: \(after)")
            #expect((previous["bufferedSeconds"] as? Double ?? 0) > 0, "\(previous)")
            #expect(previous["state"] as? String == "ready", "\(previous)")
            if players >= 4 {
                // With a fourth player the window reaches two items ahead.
                let held = (after["players"] as? [[String: Any]] ?? []).compactMap { $0["item"] as? Int }
                #expect(Set(held) == [0, 1, 2, 3], "\(held)")
            }

            // Only the current item ever plays, and it loops at its end.
            #expect(report["maxPlaying"] as? Int == 1)
            #expect(((report["loop"] as? [String: Any])?["loops"] as? Int ?? 0) >= 1)

            // The pool never grows: exactly `players` video elements, all made at start-up.
            #expect(report["maxVideoElements"] as? Int == players)
            #expect(report["playersCreated"] as? Int == players)

            // The second page was asked for when the viewer reached 3 items before the end of the first, and only then.
            let pages = try #require(report["pageRequests"] as? [[String: Any]])
            #expect(pages.count == 2, "\(pages)")
            #expect(pages.last?["current"] as? Int == Self.pageSize - 3, "\(pages)")
            #expect(pages.last?["loaded"] as? Int == Self.pageSize, "\(pages)")
            #expect(report["loadedAfterPaging"] as? Int == 2 * Self.pageSize)
            let steps = report["steps"] as? [[String: Any]] ?? []
            #expect(
                steps.allSatisfy {
                    ($0["pageRequests"] as? Int ?? 0) == (($0["current"] as? Int ?? 0) >= Self.pageSize - 3 ? 2 : 1)
                },
                "\(steps)")

            // Back up: the previous item plays again from its kept buffer; the wheel moves on a desktop.
            #expect((report["back"] as? [String: Any])?["player"] != nil)
            let wheel = try #require(report["wheel"] as? [String: Any])
            #expect(wheel["to"] as? Int == (wheel["from"] as? Int ?? -9) + 1)

            // Nothing went wrong on the way: no console errors or exceptions, no failed requests, no player errors.
            let console = report["console"] as? [[String: Any]] ?? []
            #expect(console.isEmpty, "\(console)")
            let failed = report["failedRequests"] as? [Any] ?? []
            #expect(failed.isEmpty, "\(failed)")
            let final = try #require(report["final"] as? [String: Any])
            #expect((final["errors"] as? [Any])?.isEmpty == true, "\(final)")
            #expect((final["mediaBytes"] as? Int ?? 0) > 0)
            // The aware prefetch is the default. With hls.js the page asked for the neighbours' retention curves; nobody
            // has watched these videos yet, so each neighbour keeps the window's 3 s.
            #expect(final["prefetch"] as? String == "aware", "\(final)")
            if engine == "hls.js" {
                let caps = final["neighbourCaps"] as? [String: Any] ?? [:]
                #expect(!caps.isEmpty && caps.values.allSatisfy { $0 as? Int == 3 }, "\(caps)")
            }
            let counts = final["events"] as? [String: Any] ?? [:]
            #expect((counts["recorded"] as? Int ?? 0) > 0 && counts["refused"] as? Int == 0, "\(counts)")

            // The phone page's viewer events reached the catalog (by keepalive fetch when the page was left, if not before):
            // views, and segment samples from the player's own fetches (resource timing with native HLS, FRAG_LOADED
            // with hls.js). ViewerEventsBrowserTests reads them closely.
            let catalog = SQLiteCatalogEngine(
                database: try SQLiteCatalogDatabase(path: directory.file("catalog.sqlite")))
            var kinds: [ViewerEvent.Kind] = []
            let arrived = try await ChildProcess.suspendUntil(seconds: 20) {
                kinds = try await catalog.viewerEvents(after: 0, limit: 10_000).map(\.event.kind)
                let started = kinds.contains { if case .viewStart = $0 { true } else { false } }
                return started && kinds.contains { if case .segment = $0 { true } else { false } }
            }
            #expect(arrived, "\(kinds.prefix(40))")

            // The page fits a 360-pixel phone and a desktop, and says what it is to assistive technology.
            let layout = try #require(report["layout"] as? [String: Any])
            #expect(layout["feedRole"] as? String == "feed")
            #expect(layout["labelledItems"] as? Int == layout["items"] as? Int)
            let stage = layout["stage"] as? [Double] ?? []
            #expect(stage.count == 2 && stage[0] < stage[1], "a vertical column on the desktop: \(stage)")
            for name in ["phone", "desktop"] {
                let shot = try #require((report["screenshots"] as? [String: String])?[name])
                let size = try Self.pngSize(shot)
                #expect(name == "phone" ? size == (720, 1480) : size == (1280, 800), "\(name): \(size)")
            }
        }
    }

    /// The page's upload form sends a clip over tus with plain fetch, in 2 MB PATCHes, and follows the job until
    /// the worker (running in the server) has published it. Issue 64: the post plays first in the feed while its
    /// job is still processing (its provisional rendition), then on its ladder's master once published, in the same
    /// document. How soon it plays is the bench's to measure (scripts/bench-playable.sh), not a test's.
    ///
    /// With hls.js offered, the page plays natively but the growing provisional playlist on hls.js; without it,
    /// Chromium's own player, which may fail on a growing playlist and is then attached again (app.js,
    /// `retryGrowing`). `pausing`: the viewer taps the post to pause it while it is playable; it stays paused, where
    /// it was, on its ladder.
    @Test(arguments: zip([true, false, true], [false, false, true]))
    func theUploadFormSendsAClipAndFollowsItsJobUntilItIsPublished(offeringHlsJS: Bool, pausing: Bool) async throws {
        let directory = try TemporaryDirectory()
        let catalog = directory.file("catalog.sqlite")
        let created = try await ReelProcess.run(["token", "create", "--database", catalog, "--name", "browser"])
        #expect(created.status == 0, "\(created.stderr)")
        let token = created.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        try FileManager.default.createDirectory(atPath: directory.file("inbox"), withIntermediateDirectories: true)
        var serveArguments = [
            ReelProcess.executable, "serve", "--database", catalog, "--library", directory.file("library"),
            "--inbox", directory.file("inbox"), "--settle", "0.3", "--poll-interval", "0.1", "--port", "0",
        ]
        let files = offeringHlsJS ? try Self.hlsJSFileServer() : nil
        if let files {
            #expect(await listens(files, prefix: "listening on "), "the hls.js file server: \(files.stderr)")
            serveArguments += ["--hls-js-url", Self.listeningURL(files) + "/hls.mjs"]
        }
        let server = try ChildProcess(serveArguments)
        try await withProcesses([server, files]) {
            #expect(await listens(server), "reel serve never said it was listening: \(server.stderr)")
            // Over 2 MB, so it goes up in more than one PATCH; 15 s, the design's shortest, so its ladder arrives mid-play.
            let clip = directory.file("holiday clip.mp4")
            try await onOwnThread("encodes the clip to upload") {
                var video = SyntheticVideo(width: 720, height: 1280, seconds: 15)
                video.quality = 16
                try video.write(to: clip)
            }
            let size = try #require(try FileManager.default.attributesOfItem(atPath: clip)[.size] as? Int)
            #expect(size > 2_000_000, "the clip is only \(size) bytes")

            let out = Self.packageRoot.appendingPathComponent(".build/web-client/upload").path
            let run = try await ChildProcess.run(
                [
                    "/usr/bin/timeout", "300", "python3", Self.driver, "--url", Self.listeningURL(server),
                    "--out", out, "--upload", clip, "--token", token, "--caption", Self.caption,
                ] + (pausing ? ["--pause-while-playable"] : []), within: .seconds(330))
            let report = try #require(
                try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any],
                "no report: \(run.stdout) \(run.stderr)")
            #expect(run.status == 0 && report["harnessError"] == nil, "\(report["harnessError"] ?? run.stderr)")
            let upload = try #require(report["upload"] as? [String: Any])
            #expect(upload["phase"] as? String == "published", "\(upload) \(report["uploadStatusText"] ?? "")")
            #expect(upload["offset"] as? Int == size)
            let requests = report["uploadRequests"] as? [[String: Any]] ?? []
            #expect(requests.filter { $0["method"] as? String == "POST" }.count == 1)
            #expect(
                requests.filter { $0["method"] as? String == "PATCH" }.count == (size + 1_999_999) / 2_000_000,
                "\(requests)")
            let jobPath = try #require(upload["job"] as? String)
            let store = SQLiteCatalogEngine(database: try SQLiteCatalogDatabase(path: catalog))
            let job = try #require(try await store.job(id: String(jobPath.dropFirst("/v1/jobs/".count))))
            #expect(job.state == .published)
            #expect(job.sourceName == Array("holiday clip.mp4".utf8))
            #expect((report["console"] as? [Any])?.isEmpty == true, "\(report["console"] ?? "")")
            // Issue 65: the caption typed into the form, and the token's name as its creator, shown as text.
            #expect(job.post == PostFacts(caption: Self.caption, creator: "browser"), "\(job.post)")
            let shown = try #require(report["postCaption"] as? [String: Any], "\(report)")
            let lines = (shown["lines"] as? [[String: String]] ?? []).map { [$0["kind"] ?? "", $0["text"] ?? ""] }
            #expect(lines.prefix(2) == [["creator", "@browser"], ["text", Self.caption]], "\(shown)")
            #expect(shown["elements"] as? Int == lines.count, "the caption's markup became elements: \(shown)")

            let timeline = try #require(report["uploadTimeline"] as? [String: Any])
            let first = try #require(timeline["firstPlaying"] as? [String: Any], "the post never played: \(timeline)")
            #expect(first["state"] as? String == "playable", "it first played before its ladder was done: \(first)")
            #expect(timeline["growingEngine"] as? String == (offeringHlsJS ? "hls.js" : "native"), "\(timeline)")
            #expect(first["engine"] as? String == timeline["growingEngine"] as? String, "\(first)")
            let provisional = try #require(timeline["lastProvisional"] as? [String: Any], "\(timeline)")
            if offeringHlsJS {
                #expect(timeline["growingRetries"] as? Int == 0, "\(timeline)")
                #expect(provisional["stalls"] as? Int == 0, "it stalled on its provisional rendition: \(provisional)")
            }
            #expect((first["master"] as? String)?.contains(".e1.playable/master.m3u8") == true, "\(first)")
            #expect(timeline["sameDocument"] as? Bool == true, "the page was reloaded")
            if pausing {
                try Self.expectPausedOnItsLadder(timeline, master: "/media/videos/\(job.id).e1/master.m3u8")
                return
            }
            let uploadedAt = try #require(upload["uploadedAt"] as? Double)
            let playableAt = try #require(upload["playableAt"] as? Double)
            let publishedAt = try #require(upload["publishedAt"] as? Double)
            let firstAt = try #require(first["now"] as? Double)
            #expect(uploadedAt <= playableAt && playableAt <= firstAt && firstAt < publishedAt, "\(upload) \(first)")
            let ladder = try #require(timeline["ladderPlaying"] as? [String: Any], "no ladder after: \(timeline)")
            #expect(ladder["state"] as? String == "published")
            #expect(ladder["master"] as? String == "/media/videos/\(job.id).e1/master.m3u8", "\(ladder)")
            // A second player took over on the ladder without a break: attaching it to the playing element stalled
            // once in every run.
            #expect(timeline["handovers"] as? Int == 1, "\(timeline)")
            #expect(
                timeline["stalls"] as? Int == provisional["stalls"] as? Int,
                "the move to the ladder stalled: \(timeline)")
            print(
                "web client upload (\(offeringHlsJS ? "hls.js offered" : "native only")): playing "
                    + "\(Int(firstAt - uploadedAt)) ms after the last PATCH, published after "
                    + "\(Int(publishedAt - uploadedAt)) ms, \(timeline["growingRetries"] ?? "?") retries, "
                    + "\((timeline["lastProvisional"] as? [String: Any])?["stalls"] ?? "?") stalls on the provisional "
                    + "rendition, \(timeline["stalls"] ?? "?") in all, handed over to the ladder "
                    + "\(timeline["lastHandover"] ?? "?")")
        }
    }

    /// What the upload test types into the form: markup that must stay text, a line feed, an emoji sequence.
    static let caption = "Low tide <b>bold?</b> & <img src=x onerror=alert(1)>\nsecond line 👩‍👩‍👧"

    /// A post paused on its provisional rendition was handed over to its ladder where it stood, and stays paused.
    static func expectPausedOnItsLadder(_ timeline: [String: Any], master: String) throws {
        let paused = try #require(timeline["pausedProvisional"] as? [String: Any], "never paused: \(timeline)")
        let ladder = try #require(timeline["pausedLadder"] as? [String: Any], "not paused on its ladder: \(timeline)")
        let later = try #require(timeline["pausedLadderLater"] as? [String: Any], "\(timeline)")
        #expect(ladder["master"] as? String == master && later["master"] as? String == master, "\(timeline)")
        let at = try #require(paused["time"] as? Double)
        let ladderAt = try #require(ladder["time"] as? Double), laterAt = try #require(later["time"] as? Double)
        #expect(abs(ladderAt - at) < 0.3 && laterAt == ladderAt, "paused at \(at), then \(ladderAt), \(laterAt)")
        #expect(later["playerState"] as? String == "ready", "\(later)")
        let handover = try #require(timeline["lastHandover"] as? [String: Any], "\(timeline)")
        #expect(timeline["handovers"] as? Int == 1 && handover["outcome"] as? String == "took over a paused player")
    }

    // MARK: Fixtures

    static var packageRoot: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
    }

    static var browserFolder: URL { packageRoot.appendingPathComponent("Tests/Browser") }
    static var driver: String { browserFolder.appendingPathComponent("feed_browser.py").path }

    /// `.build/vendor/hls.mjs` served from another origin, as from a CDN, by `cors_file_server.py`.
    static func hlsJSFileServer() throws -> ChildProcess {
        let vendor = packageRoot.appendingPathComponent(".build/vendor")
        try #require(
            FileManager.default.fileExists(atPath: vendor.appendingPathComponent("hls.mjs").path),
            "hls.js is missing: scripts/install-deps.sh test runs scripts/fetch-hlsjs.py")
        return try ChildProcess([
            "/usr/bin/env", "python3", browserFolder.appendingPathComponent("cors_file_server.py").path, vendor.path,
        ])
    }

    /// The URL from a child's first line, "listening on http://127.0.0.1:PORT".
    static func listeningURL(_ child: ChildProcess) -> String {
        child.stdout.split(separator: "\n").first?.split(separator: " ").last.map(String.init) ?? ""
    }

    /// `count` vertical clips in the feed: three ladders made by the real transcoder, each published under several
    /// ids from copies of its folder (the page cannot tell; transcoding twelve would only cost time). The video at
    /// `withoutPlaylist`, if any, is published with its master playlist deleted, so no player can start it.
    static func makeLibrary(
        in directory: TemporaryDirectory, videos count: Int, withoutPlaylist: Int? = nil
    ) async throws {
        let store = SQLiteCatalogEngine(database: try SQLiteCatalogDatabase(path: directory.file("catalog.sqlite")))
        let videosFolder = directory.file("library/videos")
        try FileManager.default.createDirectory(atPath: videosFolder, withIntermediateDirectories: true)
        // Three ladders transcoded in this process: on a thread of their own, not on the concurrency pool's two.
        let ladders = try await onOwnThread("transcodes the web client's three ladders") {
            var ladders: [(folder: String, summary: TranscodeSummary)] = []
            for clip in 0..<3 {
                let source = directory.file("clip\(clip).mp4")
                var video = SyntheticVideo(width: 360, height: 640, seconds: 8)
                video.quality = 30 + clip
                try video.write(to: source)
                let folder = "\(videosFolder)/ladder\(clip)"
                ladders.append((folder, try LadderTranscoder().run(source: source, output: folder)))
            }
            return ladders
        }
        for index in 0..<count {
            let id = String(format: "web%03d", index)
            let (folder, summary) = ladders[index % ladders.count]
            try FileManager.default.copyItem(atPath: folder, toPath: "\(videosFolder)/\(id)")
            if index == withoutPlaylist {
                try FileManager.default.removeItem(atPath: "\(videosFolder)/\(id)/master.m3u8")
            }
            try await store.publish(
                PublishedVideo(
                    id: id, createdAt: Int64(index), publishedAt: 1_800_000_000_000 - Int64(index) * 60_000,
                    durationMilliseconds: Int(summary.durationSeconds * 1000), width: 360, height: 640,
                    contentHash: id, source: nil, masterPath: "videos/\(id)/master.m3u8",
                    posterJPEGPath: "videos/\(id)/poster.jpg", posterWebPPath: "videos/\(id)/poster.webp",
                    renditions: summary.renditions.map {
                        FeedVideo.Rendition(
                            rung: $0.id, width: $0.width, height: $0.height, bandwidth: $0.bandwidth,
                            averageBandwidth: $0.averageBandwidth, codecs: $0.codecs, segments: $0.segments)
                    }))
        }
    }

    /// Width and height from a PNG's IHDR chunk.
    static func pngSize(_ path: String) throws -> (Int, Int) {
        let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: path)).prefix(24))
        guard bytes.count == 24, bytes[0..<8] == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] else { return (0, 0) }
        func be32(_ at: Int) -> Int { bytes[at..<at + 4].reduce(0) { $0 << 8 | Int($1) } }
        return (be32(16), be32(20))
    }
}
