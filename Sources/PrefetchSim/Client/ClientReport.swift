/// What happened in a simulated scroll, for assertions in tests and for `reel simulate`'s metrics.
public struct ClientReport: Sendable {
    public let events: [ClientEvent]
    public let playersCreated: Int
    public let startupDelays: [Int]
    public let stallCount: Int
    public let stallMilliseconds: Int
    public let watchMilliseconds: Int
    public let bytesDownloaded: Int
    public let bytesPlayed: Int
    public let bytesWasted: Int
    public let bytesStillBuffered: Int
    public let peakBufferedBytes: Int
    public let pageRequests: Int
    /// Swipes to a next item that already had at least one chunk, over all swipes forward.
    public let prefetchHits: Int
    public let forwardSwipes: Int

    public var prefetchHitRate: Double { forwardSwipes > 0 ? Double(prefetchHits) / Double(forwardSwipes) : 0 }
    public var stallRatio: Double {
        watchMilliseconds > 0 ? Double(startupDelays.reduce(0, +) + stallMilliseconds) / Double(watchMilliseconds) : 0
    }
    public var wasteRatio: Double { bytesDownloaded > 0 ? Double(bytesWasted) / Double(bytesDownloaded) : 0 }

    public func percentileStartup(_ p: Double) -> Int {
        guard !startupDelays.isEmpty else { return 0 }
        let sorted = startupDelays.sorted()
        return sorted[min(sorted.count - 1, Int((Double(sorted.count - 1) * p).rounded(.up)))]
    }

    /// Chunks fetched for `item`: when, which chunk and at which rung.
    public func prefetched(_ item: Int) -> [(time: Int, chunk: Int, rung: Int)] {
        events.compactMap {
            if case let .downloadFinished(i, chunk, rung, _) = $0.kind, i == item { return ($0.time, chunk, rung) }
            return nil
        }
    }

    /// Every item a download was started for.
    public var fetchedItems: Set<Int> {
        Set(
            events.compactMap { if case let .downloadStarted(item, _, _) = $0.kind { return item } else { return nil } }
        )
    }

    public var log: String { events.map(\.description).joined(separator: "\n") }
}
