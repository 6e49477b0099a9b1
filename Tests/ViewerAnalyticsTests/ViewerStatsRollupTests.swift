import Foundation
import Testing
import ViewerAnalytics

@Suite(.timeLimit(.minutes(1))) struct ViewerStatsRollupTests {
    static func start(_ session: String, _ video: String, startup: Int = 100) -> ViewerEvent {
        ViewerEvent(session: session, video: video, kind: .viewStart(rendition: "720p", startupMilliseconds: startup))
    }

    static func end(
        _ session: String, _ video: String, watched: Double, completed: Bool = false, bytes: Int = 0
    )
        -> ViewerEvent
    {
        ViewerEvent(
            session: session, video: video, kind: .viewEnd(watchedSeconds: watched, completed: completed, bytes: bytes))
    }

    /// Closed and open views count; a stall or segment outside any view does not make a video viewed.
    @Test func theVideosViewedAreThoseWithAViewStart() {
        var rollup = ViewerStatsRollup()
        rollup.add([
            Self.start("a", "v2"), Self.end("a", "v2", watched: 3), Self.start("b", "v1"),
            ViewerEvent(session: "c", video: "v3", kind: .stall(milliseconds: 10)),
            ViewerEvent(session: "c", video: "v4", kind: .segment(bytes: 10, milliseconds: 10)),
        ])
        #expect(rollup.videosViewed == ["v1", "v2"])
        #expect(rollup.videosViewed == rollup.stats(durationSeconds: [:]).keys.sorted())
    }

    @Test func viewsSessionsStartupStallsAndBytesAddUp() throws {
        var rollup = ViewerStatsRollup()
        rollup.add([
            Self.start("a", "v", startup: 100),
            ViewerEvent(session: "a", video: "v", kind: .stall(milliseconds: 500)),
            Self.end("a", "v", watched: 10, completed: true, bytes: 1000),
            Self.start("a", "v", startup: 300),  // the same tab comes back: a second view
            Self.end("a", "v", watched: 2, bytes: 500),
            Self.start("b", "v", startup: 200),
            ViewerEvent(session: "b", video: "v", kind: .progress(positionSeconds: 5, watchedSeconds: 5)),
            // b never sent its end: it counts as its last progress, not completed.
            ViewerEvent(session: "c", video: "v", kind: .stall(milliseconds: 9999)),  // no view open: ignored
        ])
        let stats = try #require(rollup.stats(durationSeconds: ["v": 10])["v"])
        #expect(stats.views == 3)
        #expect(stats.sessions == 2)
        #expect(stats.startupMedianMilliseconds == 200)
        #expect(stats.startupP90Milliseconds == 300)
        #expect(abs(stats.rebufferRatio - 0.5 / 17) < 1e-12)
        #expect(abs(stats.completionRate - 1.0 / 3) < 1e-12)
        #expect(abs(stats.meanWatchedFraction - (1 + 0.2 + 0.5) / 3) < 1e-12)
        #expect(stats.bytesPerView == 500)
        #expect(stats.retention.count == 11)
        #expect(stats.retention[0] == 1)
        #expect(abs(stats.retention[3] - 2.0 / 3) < 1e-12)
        #expect(abs(stats.retention[10] - 1.0 / 3) < 1e-12)
    }

    @Test func retentionNeverRisesStartsAtOneAndStopsAtSixtySeconds() throws {
        // Every split of 12 views among watch times 0, 7.5, 30, 59.9, 60 and 240 s (a looping video) on a 90 s video.
        let times = [0, 7.5, 30, 59.9, 60, 240]
        for seed in 0..<200 {
            var generator = seed
            var events: [ViewerEvent] = []
            for view in 0..<12 {
                generator = (generator &* 1_103_515_245 &+ 12345) & 0x7fff_ffff
                events += [
                    Self.start("s\(view)", "v"), Self.end("s\(view)", "v", watched: times[generator % times.count]),
                ]
            }
            var rollup = ViewerStatsRollup()
            rollup.add(events)
            let stats = try #require(rollup.stats(durationSeconds: ["v": 90])["v"])
            #expect(stats.retention.count == 61)
            #expect(stats.retention[0] == 1)
            #expect(zip(stats.retention, stats.retention.dropFirst()).allSatisfy { $0 >= $1 })
            #expect(stats.meanWatchedFraction <= 1)
        }
    }

    /// Every startup lands in exactly one bucket: the one whose start it reaches and whose end it does not.
    @Test func theStartupHistogramCountsEachViewOnceAtItsBucketsEdges() throws {
        let bounds = VideoStats.startupBucketBounds
        let edges = bounds.flatMap { [$0, $0 + 1, max(0, $0 - 1)] } + [600_000]
        var rollup = ViewerStatsRollup()
        for (index, startup) in edges.enumerated() {
            rollup.add([Self.start("s\(index)", "v", startup: startup), Self.end("s\(index)", "v", watched: 1)])
        }
        let histogram = try #require(rollup.stats(durationSeconds: ["v": 10])["v"]).startupHistogram
        #expect(histogram.map(\.fromMilliseconds) == bounds)
        #expect(histogram.map(\.toMilliseconds) == bounds.dropFirst().map { Optional($0) } + [nil])
        #expect(histogram.map(\.views).reduce(0, +) == edges.count)
        for bucket in histogram {
            let expected = edges.filter { $0 >= bucket.fromMilliseconds && $0 < (bucket.toMilliseconds ?? .max) }
            #expect(bucket.views == expected.count, "\(bucket)")
        }
        #expect(VideoStats.startupHistogram(of: []).allSatisfy { $0.views == 0 })
    }

    /// Figures stored before the histogram existed still decode (with an empty one), and new ones round-trip.
    @Test func storedFiguresWithoutAHistogramDecode() throws {
        let old = """
            {"video":"v","views":2,"sessions":1,"startup_median_ms":300,"rebuffer_ratio":0,
             "mean_watched_fraction":0.5,"completion_rate":0.5,"bytes_per_view":10,"retention":[1,0.5]}
            """
        let decoded = try JSONDecoder().decode(VideoStats.self, from: Data(old.utf8))
        #expect(decoded.views == 2 && decoded.startupHistogram.count == VideoStats.startupBucketBounds.count)
        var rollup = ViewerStatsRollup()
        rollup.add([Self.start("a", "v", startup: 700), Self.end("a", "v", watched: 3)])
        let stats = try #require(rollup.stats(durationSeconds: ["v": 10])["v"])
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let json = try encoder.encode(stats)
        #expect(try JSONDecoder().decode(VideoStats.self, from: json) == stats)
        #expect(String(decoding: json, as: UTF8.self).contains(#"{"from_ms":500,"to_ms":1000,"views":1}"#))
    }

    @Test func percentilesAreNearestRank() {
        #expect(ViewerStatsRollupTests.percentile([], 0.5) == nil)
        #expect(ViewerStatsRollupTests.percentile([7], 0.9) == 7)
        #expect(ViewerStatsRollupTests.percentile(Array(1...10), 0.5) == 5)
        #expect(ViewerStatsRollupTests.percentile(Array(1...10), 0.9) == 9)
        #expect(ViewerStatsRollupTests.percentile(Array(1...11), 0.9) == 10)
    }

    static func percentile(_ values: [Int], _ p: Double) -> Int? {
        var rollup = ViewerStatsRollup()
        rollup.add(values.enumerated().flatMap { [Self.start("s\($0.offset)", "v", startup: $0.element)] })
        let stats = rollup.stats(durationSeconds: ["v": 10])["v"]
        return p == 0.5 ? stats?.startupMedianMilliseconds : stats?.startupP90Milliseconds
    }
}
