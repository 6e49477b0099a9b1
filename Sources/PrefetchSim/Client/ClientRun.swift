/// Runs the client model the way `reel simulate` does: each user scrolls the feed watching each video for the
/// time drawn from its retention curve, on each trace; figures are summed over all sessions.
public struct ClientRun: Sendable {
    public struct Summary: Codable, Sendable {
        public var sessions: Int
        public var startupP50Milliseconds: Int
        public var startupP95Milliseconds: Int
        public var startupMeanMilliseconds: Double = 0
        public var stallCount: Int
        public var stallMilliseconds: Int
        public var stallRatio: Double
        public var watchMilliseconds: Int
        public var bytesDownloaded: Int
        public var bytesWasted: Int
        public var wasteRatio: Double
        public var prefetchHitRate: Double
        public var playersCreated: Int
        public var peakBufferedBytes: Int
        public var pageRequests: Int
        public var chunksDownloaded: Int = 0
        public var chunkEventsPerSecond: Double = 0

        enum CodingKeys: String, CodingKey {
            case sessions
            case startupP50Milliseconds = "startup_p50_ms"
            case startupP95Milliseconds = "startup_p95_ms"
            case startupMeanMilliseconds = "startup_mean_ms"
            case stallCount = "stall_count"
            case stallMilliseconds = "stall_ms"
            case stallRatio = "stall_ratio"
            case watchMilliseconds = "watch_ms"
            case bytesDownloaded = "bytes_downloaded"
            case bytesWasted = "wasted_bytes"
            case wasteRatio = "waste_ratio"
            case prefetchHitRate = "prefetch_hit_rate"
            case playersCreated = "players_created"
            case peakBufferedBytes = "peak_buffered_bytes"
            case pageRequests = "page_requests"
            case chunksDownloaded = "chunks_downloaded"
            case chunkEventsPerSecond = "chunk_events_per_second"
        }
    }

    /// Window settings for the policies `none`, `next1`, `window`, `window:K` and `aware` (window 2/1 with
    /// `RetentionPrefetch`: `base`'s if it has one, else the defaults).
    /// - Throws: `PolicyNameError.challengeOnly` for a name the client model has no window for.
    public static func configuration(
        policy: PolicyName, base: ClientConfiguration
    ) throws(PolicyNameError) -> ClientConfiguration {
        var configuration = base
        configuration.retentionPrefetch = nil
        switch policy {
        case .noPrefetch: (configuration.ahead, configuration.behind) = (0, 0)
        case .next1: (configuration.ahead, configuration.behind) = (1, 0)
        case .window: (configuration.ahead, configuration.behind) = (2, 1)
        case let .windowOf(k): (configuration.ahead, configuration.behind) = (k, 1)
        case .aware:
            (configuration.ahead, configuration.behind) = (2, 1)
            configuration.retentionPrefetch = base.retentionPrefetch ?? RetentionPrefetch()
        case .w0, .w1, .w2, .w4, .a2, .noSave, .fixedPreload, .pdas, .lookahead: throw .challengeOnly(policy)
        }
        return configuration
    }

    /// Each user's scroll: watch, swipe; with `backSwipeProbability` (seeded) they go back to the previous video
    /// for a second before moving on, and `pauseMilliseconds` is the scroll gesture between videos.
    public static func script(
        watch: [Int], backSwipeProbability: Double, pauseMilliseconds: Int, seed: UInt64
    ) -> [ScrollStep] {
        var generator = UserSampler.Generator(state: seed)
        var steps: [ScrollStep] = []
        for (index, milliseconds) in watch.enumerated() {
            steps.append(.watch(milliseconds: max(1, milliseconds)))
            if index > 0, backSwipeProbability > 0, Double.random(in: 0..<1, using: &generator) < backSwipeProbability {
                steps += [.swipeBack, .watch(milliseconds: 1000), .swipe]
            }
            steps.append(.swipe)
            if pauseMilliseconds > 0 { steps.append(.watch(milliseconds: pauseMilliseconds)) }
        }
        return steps
    }

    /// Every user on every trace with `policy`'s window, summed into one summary.
    /// - Throws: `PolicyNameError.challengeOnly` for a name the client model has no window for.
    public static func run(
        catalog: [ShortVideo], traces: [NetworkTrace], users: [[Int]], policy: PolicyName,
        base: ClientConfiguration = ClientConfiguration(), backSwipeProbability: Double = 0,
        pauseMilliseconds: Int = 0, seed: UInt64 = 1
    ) throws(PolicyNameError) -> Summary {
        var startups: [Int] = []
        var summary = Summary(
            sessions: 0, startupP50Milliseconds: 0, startupP95Milliseconds: 0, stallCount: 0, stallMilliseconds: 0,
            stallRatio: 0, watchMilliseconds: 0, bytesDownloaded: 0, bytesWasted: 0, wasteRatio: 0,
            prefetchHitRate: 0, playersCreated: 0, peakBufferedBytes: 0, pageRequests: 0)
        var hits = 0, swipes = 0, waitedOrStalled = 0
        var configuration = try configuration(policy: policy, base: base)
        for trace in traces {
            for (number, watch) in users.enumerated() {
                configuration.feedLength = watch.count
                let script = Self.script(
                    watch: watch, backSwipeProbability: backSwipeProbability,
                    pauseMilliseconds: pauseMilliseconds, seed: seed &+ UInt64(number))
                let report = FeedClientSimulator(catalog: catalog, network: trace, configuration: configuration).run(
                    script)
                summary.sessions += 1
                startups += report.startupDelays
                summary.stallCount += report.stallCount
                summary.stallMilliseconds += report.stallMilliseconds
                summary.watchMilliseconds += report.watchMilliseconds
                summary.bytesDownloaded += report.bytesDownloaded
                summary.bytesWasted += report.bytesWasted
                summary.playersCreated = max(summary.playersCreated, report.playersCreated)
                summary.peakBufferedBytes = max(summary.peakBufferedBytes, report.peakBufferedBytes)
                summary.pageRequests += report.pageRequests
                summary.chunksDownloaded += report.events.reduce(0) {
                    if case .downloadFinished = $1.kind { $0 + 1 } else { $0 }
                }
                hits += report.prefetchHits
                swipes += report.forwardSwipes
                waitedOrStalled += report.startupDelays.reduce(0, +) + report.stallMilliseconds
            }
        }
        let sorted = startups.sorted()
        func percentile(_ p: Double) -> Int {
            sorted.isEmpty ? 0 : sorted[min(sorted.count - 1, Int((Double(sorted.count - 1) * p).rounded(.up)))]
        }
        summary.startupP50Milliseconds = percentile(0.5)
        summary.startupP95Milliseconds = percentile(0.95)
        summary.startupMeanMilliseconds = sorted.isEmpty ? 0 : Double(sorted.reduce(0, +)) / Double(sorted.count)
        summary.stallRatio =
            summary.watchMilliseconds > 0 ? Double(waitedOrStalled) / Double(summary.watchMilliseconds) : 0
        summary.wasteRatio =
            summary.bytesDownloaded > 0 ? Double(summary.bytesWasted) / Double(summary.bytesDownloaded) : 0
        summary.prefetchHitRate = swipes > 0 ? Double(hits) / Double(swipes) : 0
        return summary
    }
}
