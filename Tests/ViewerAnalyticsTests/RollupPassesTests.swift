import Testing
import ViewerAnalytics

/// The roll-up kept across passes, as `reel serve` runs it: each pass adds the events stored since the last, drops
/// what expired, and recomputes only the videos it says changed. Every pass's figures must match a roll-up made
/// afresh from the events still kept, as the old once-a-minute re-read made them.
@Suite(.timeLimit(.minutes(2))) struct RollupPassesTests {
    struct Stored {
        let at: Int64
        let event: ViewerEvent
    }

    /// A random stream: a few tabs and videos, every kind, times that never go back, sometimes bunched.
    static func stream(seed: Int, count: Int) -> [Stored] {
        var state = UInt64(truncatingIfNeeded: seed) &* 0x9E37_79B9_7F4A_7C15 | 1
        func next(_ bound: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((state >> 33) % UInt64(bound))
        }
        var time: Int64 = 0
        return (0..<count).map { _ in
            time += Int64(next(4))
            let kind: ViewerEvent.Kind
            switch next(10) {
            case 0, 1, 2: kind = .viewStart(rendition: "720p", startupMilliseconds: 50 * next(40))
            case 3: kind = .stall(milliseconds: 100 * next(30))
            case 4, 5: kind = .progress(positionSeconds: Double(next(50)), watchedSeconds: Double(next(120)) / 2)
            case 6, 7:
                kind = .viewEnd(watchedSeconds: Double(next(130)) / 2, completed: next(3) == 0, bytes: next(9_999))
            case 8: kind = .segment(bytes: next(500_000), milliseconds: next(900) + 1)
            default: kind = .error(message: "e")
            }
            let video = next(12) == 0 ? nil : "v\(next(4))"
            return Stored(at: time, event: ViewerEvent(session: "s\(next(6))", video: video, kind: kind))
        }
    }

    static func agree(_ a: Double, _ b: Double) -> Bool { abs(a - b) <= 1e-9 * max(1, abs(a), abs(b)) }

    static func same(_ a: VideoStats, _ b: VideoStats) -> Bool {
        a.video == b.video && a.views == b.views && a.sessions == b.sessions
            && a.startupMedianMilliseconds == b.startupMedianMilliseconds
            && a.startupP90Milliseconds == b.startupP90Milliseconds && a.startupHistogram == b.startupHistogram
            && agree(a.rebufferRatio, b.rebufferRatio) && agree(a.meanWatchedFraction, b.meanWatchedFraction)
            && agree(a.completionRate, b.completionRate) && agree(a.bytesPerView, b.bytesPerView)
            && a.retention.count == b.retention.count && zip(a.retention, b.retention).allSatisfy(agree)
    }

    @Test func everyPassMatchesARollupMadeAfresh() {
        // v3 has no known length: it is taken to be as long as its longest view, which expiry can change.
        let durations = ["v0": 15.0, "v1": 30, "v2": 60]
        var passes = 0
        for seed in 0..<300 {
            let events = Self.stream(seed: seed, count: 400)
            var kept = ViewerStatsRollup()
            var figures: [String: VideoStats] = [:]
            var next = 0
            var cutoff: Int64 = 0
            while next < events.count {
                let end = min(events.count, next + 1 + (seed * 31 + next * 7) % 60)
                for stored in events[next..<end] { kept.add(stored.event, receivedAt: stored.at) }
                next = end
                // The window slides with the newest event; some passes expire nothing, some a lot.
                cutoff = max(cutoff, events[end - 1].at - Int64(20 + (seed + end) % 150))
                kept.expire(startedBefore: cutoff)
                let changed = kept.takeChangedVideos()
                let fresh = kept.stats(of: changed, durationSeconds: durations)
                for id in changed { figures[id] = fresh[id] }

                var afresh = ViewerStatsRollup()
                for stored in events[..<end] where stored.at >= cutoff {
                    afresh.add(stored.event, receivedAt: stored.at)
                }
                let expected = afresh.stats(durationSeconds: durations)
                #expect(figures.keys.sorted() == expected.keys.sorted(), "seed \(seed), pass ending at \(end)")
                for (video, stats) in expected {
                    #expect(figures[video].map { Self.same($0, stats) } == true, "seed \(seed), \(video) at \(end)")
                }
                passes += 1
            }
        }
        #expect(passes > 3_000)
    }

    /// A pass with nothing new and nothing expired changes no video.
    @Test func aQuietPassChangesNothing() {
        var rollup = ViewerStatsRollup()
        for stored in Self.stream(seed: 7, count: 200) { rollup.add(stored.event, receivedAt: stored.at) }
        #expect(!rollup.takeChangedVideos().isEmpty)
        rollup.expire(startedBefore: 0)
        #expect(rollup.takeChangedVideos().isEmpty)
        rollup.expire(startedBefore: .max)
        #expect(rollup.videosViewed.isEmpty && !rollup.takeChangedVideos().isEmpty)
    }
}
