import Testing
import ViewerAnalytics

/// The engaging order over many random catalogs: time alone never reorders it, better figures never rank a video
/// below an older one, videos without views fall back to newest first, and a handful of perfect views does not beat a proven video.
@Suite(.timeLimit(.minutes(1))) struct EngagingOrderTests {
    static let hour: Int64 = 3_600_000
    static let now: Int64 = 1_800_000_000_000

    struct Generator {
        var state: UInt64
        mutating func next(_ bound: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((state >> 33) % UInt64(bound))
        }
    }

    static func stats(_ id: String, views: Int, completion: Double, watched: Double) -> VideoStats {
        VideoStats(
            video: id, views: views, sessions: views, startupMedianMilliseconds: nil, startupP90Milliseconds: nil,
            rebufferRatio: 0, meanWatchedFraction: watched, completionRate: completion, bytesPerView: 0, retention: [1])
    }

    /// 40 videos up to 30 days old (some a second apart, some published at the same millisecond), about half with
    /// figures from 1 to 5,000 views.
    static func catalog(seed: UInt64) -> ([EngagingOrder.Candidate], [String: VideoStats]) {
        var random = Generator(state: seed)
        var candidates: [EngagingOrder.Candidate] = []
        var stats: [String: VideoStats] = [:]
        for index in 0..<40 {
            let id = "v\(index)"
            let age = random.next(4) == 0 ? Int64(random.next(3)) * 1000 : Int64(random.next(720)) * hour
            candidates.append(EngagingOrder.Candidate(id: id, publishedAt: now - age))
            if random.next(2) == 0 {
                stats[id] = Self.stats(
                    id, views: 1 + random.next(5000), completion: Double(random.next(11)) / 10,
                    watched: Double(random.next(11)) / 10)
            }
        }
        return (candidates, stats)
    }

    @Test func timeAloneNeverReordersIt() {
        for seed in 0..<300 {
            let (candidates, stats) = Self.catalog(seed: UInt64(seed))
            let order = EngagingOrder.rank(candidates, stats: stats, now: Self.now)
            #expect(Set(order) == Set(candidates.map(\.id)) && order.count == candidates.count)
            // An hour, a week, and ten years on (scores themselves would underflow to 0 by then).
            for later in [Self.hour, 168 * Self.hour, 87_600 * Self.hour] {
                #expect(EngagingOrder.rank(candidates, stats: stats, now: Self.now + later) == order, "seed \(seed)")
            }
            #expect(EngagingOrder.rank(candidates.reversed(), stats: stats, now: Self.now) == order)
        }
    }

    @Test func betterFiguresNeverRankAVideoLower() {
        for seed in 0..<300 {
            let (candidates, stats) = Self.catalog(seed: UInt64(seed))
            let order = EngagingOrder.rank(candidates, stats: stats, now: Self.now)
            for (id, figures) in stats where figures.completionRate < 1 {
                var better = stats
                better[id]?.completionRate = min(1, figures.completionRate + 0.1)
                let reordered = EngagingOrder.rank(candidates, stats: better, now: Self.now)
                // Its improvement also raises the catalog's mean, which lifts every other video a little, never more
                // than it lifts this one; a newer video's lift counts for more (it is less decayed) and may overtake
                // it. Among the videos no newer than it, it can only gain.
                let published = Dictionary(uniqueKeysWithValues: candidates.map { ($0.id, $0.publishedAt) })
                let peers = { (ranking: [String]) in ranking.filter { published[$0]! <= published[id]! } }
                #expect(
                    peers(reordered).firstIndex(of: id)! <= peers(order).firstIndex(of: id)!, "seed \(seed), \(id)")
            }
        }
    }

    @Test func withoutViewsItIsNewestFirstThenById() {
        let candidates = [
            EngagingOrder.Candidate(id: "a", publishedAt: Self.now - 2 * Self.hour),
            EngagingOrder.Candidate(id: "c", publishedAt: Self.now - Self.hour),
            EngagingOrder.Candidate(id: "b", publishedAt: Self.now - Self.hour),
            EngagingOrder.Candidate(id: "d", publishedAt: Self.now),
        ]
        #expect(EngagingOrder.rank(candidates, stats: [:], now: Self.now) == ["d", "c", "b", "a"])
        #expect(EngagingOrder.rank([], stats: [:], now: Self.now).isEmpty)
    }

    /// Three perfect views are noise: a same-age video with 2,000 views at 90 % ranks above it, and so, from its
    /// views' pull toward the mean, does nothing with fewer than its mean.
    @Test func aHandfulOfPerfectViewsIsNotRankedOnNoise() {
        let candidates = ["lucky", "proven", "ordinary"].map {
            EngagingOrder.Candidate(id: $0, publishedAt: Self.now - Self.hour)
        }
        let stats = [
            "lucky": Self.stats("lucky", views: 3, completion: 1, watched: 1),
            "proven": Self.stats("proven", views: 2000, completion: 0.9, watched: 0.9),
            "ordinary": Self.stats("ordinary", views: 2000, completion: 0.3, watched: 0.4),
        ]
        #expect(EngagingOrder.rank(candidates, stats: stats, now: Self.now) == ["proven", "lucky", "ordinary"])
    }
}
