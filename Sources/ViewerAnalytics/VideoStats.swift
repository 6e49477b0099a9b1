/// What viewers made of one video, rolled up from their events (`GET /v1/videos/{id}/stats`, `reel stats`).
package struct VideoStats: Sendable, Equatable, Codable {
    package var video: String
    package var views: Int
    package var sessions: Int
    package var startupMedianMilliseconds: Int?
    package var startupP90Milliseconds: Int?
    /// Stalled time over watched time.
    package var rebufferRatio: Double
    /// Mean over views of the watched share of the video, each capped at 1 (a loop is not a second view).
    package var meanWatchedFraction: Double
    /// Views that reached the end, over views.
    package var completionRate: Double
    package var bytesPerView: Double
    /// `retention[t]`: the share of views still watching at second t, for t = 0 up to 60 s or the video's length.
    package var retention: [Double]
    /// Views by startup time, in the fixed buckets of `startupBucketBounds` (the last one open-ended).
    package var startupHistogram: [StartupBucket]

    /// Where the startup histogram's buckets begin, in ms: doubling from 250 ms, as startups spread over orders of
    /// magnitude between a prefetched swipe and a cold start on 3G.
    package static let startupBucketBounds = [0, 250, 500, 1000, 2000, 4000, 8000]

    package init(
        video: String, views: Int, sessions: Int, startupMedianMilliseconds: Int?, startupP90Milliseconds: Int?,
        rebufferRatio: Double, meanWatchedFraction: Double, completionRate: Double, bytesPerView: Double,
        retention: [Double], startupHistogram: [StartupBucket] = VideoStats.startupHistogram(of: [])
    ) {
        self.video = video
        self.views = views
        self.sessions = sessions
        self.startupMedianMilliseconds = startupMedianMilliseconds
        self.startupP90Milliseconds = startupP90Milliseconds
        self.rebufferRatio = rebufferRatio
        self.meanWatchedFraction = meanWatchedFraction
        self.completionRate = completionRate
        self.bytesPerView = bytesPerView
        self.retention = retention
        self.startupHistogram = startupHistogram
    }

    /// `startups` (ms) counted into the buckets of `startupBucketBounds`.
    package static func startupHistogram(of startups: [Int]) -> [StartupBucket] {
        let bounds = startupBucketBounds
        return bounds.indices.map { index in
            let low = bounds[index]
            let high = index + 1 < bounds.count ? bounds[index + 1] : nil
            let views = startups.filter { startup in startup >= low && (high.map { startup < $0 } ?? true) }.count
            return StartupBucket(fromMilliseconds: low, toMilliseconds: high, views: views)
        }
    }

    package init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        video = try container.decode(String.self, forKey: .video)
        views = try container.decode(Int.self, forKey: .views)
        sessions = try container.decode(Int.self, forKey: .sessions)
        startupMedianMilliseconds = try container.decodeIfPresent(Int.self, forKey: .startupMedianMilliseconds)
        startupP90Milliseconds = try container.decodeIfPresent(Int.self, forKey: .startupP90Milliseconds)
        rebufferRatio = try container.decode(Double.self, forKey: .rebufferRatio)
        meanWatchedFraction = try container.decode(Double.self, forKey: .meanWatchedFraction)
        completionRate = try container.decode(Double.self, forKey: .completionRate)
        bytesPerView = try container.decode(Double.self, forKey: .bytesPerView)
        retention = try container.decode([Double].self, forKey: .retention)
        // Figures stored before the histogram existed have none until the next roll-up (minutes) replaces them.
        startupHistogram =
            try container.decodeIfPresent([StartupBucket].self, forKey: .startupHistogram)
            ?? Self.startupHistogram(of: [])
    }

    enum CodingKeys: String, CodingKey {
        case video, views, sessions
        case startupMedianMilliseconds = "startup_median_ms"
        case startupP90Milliseconds = "startup_p90_ms"
        case rebufferRatio = "rebuffer_ratio"
        case meanWatchedFraction = "mean_watched_fraction"
        case completionRate = "completion_rate"
        case bytesPerView = "bytes_per_view"
        case retention
        case startupHistogram = "startup_histogram"
    }
}

/// One bar of a startup histogram: the views whose startup took from `fromMilliseconds` up to (not including)
/// `toMilliseconds`, or longer for the last bar.
package struct StartupBucket: Sendable, Equatable, Codable {
    package var fromMilliseconds: Int
    package var toMilliseconds: Int?
    package var views: Int

    package init(fromMilliseconds: Int, toMilliseconds: Int?, views: Int) {
        self.fromMilliseconds = fromMilliseconds
        self.toMilliseconds = toMilliseconds
        self.views = views
    }

    enum CodingKeys: String, CodingKey {
        case fromMilliseconds = "from_ms"
        case toMilliseconds = "to_ms"
        case views
    }
}
