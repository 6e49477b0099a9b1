public import FeedStore
internal import Foundation
public import Logging
public import ServiceLifecycle
internal import ViewerAnalytics

/// Once a minute: deletes the events older than `--events-retention`, rolls the rest up into per-video figures
/// (`ViewerStatsRollup`) and replaces the stored figures with them in one transaction. The figures therefore cover the
/// retention window. Idempotent, so several servers on one PostgreSQL catalog may each run it.
public struct ViewerStatsService: Service {
    let log: any ViewerEventLog
    let videos: any FeedReading
    let retention: Duration
    let interval: Duration
    let logger: Logger
    /// Events read per query while rolling up.
    static let page = 10_000

    public init(
        log: any ViewerEventLog, videos: any FeedReading, retention: Duration, interval: Duration = .seconds(60),
        logger: Logger
    ) {
        self.log = log
        self.videos = videos
        self.retention = retention
        self.interval = interval
        self.logger = logger
    }

    public func run() async throws {
        await cancelWhenGracefulShutdown {
            while !Task.isCancelled {
                do {
                    let outcome = try await rollUp(now: Int64(Date().timeIntervalSince1970 * 1000))
                    logger.debug(
                        "viewer figures rolled up",
                        metadata: [
                            "events": "\(outcome.events)", "videos": "\(outcome.videos)",
                            "deleted": "\(outcome.deleted)",
                        ])
                } catch {
                    logger.error("cannot roll up viewer events yet", metadata: ["error": "\(error)"])
                }
                try? await Task.sleep(for: interval)
            }
        }
    }

    /// One pass at `now` (Unix milliseconds): how many events it deleted and read, and how many videos it figured.
    @discardableResult
    public func rollUp(now: Int64) async throws(CatalogError) -> (deleted: Int, events: Int, videos: Int) {
        let retentionMilliseconds =
            retention.components.seconds * 1000 + retention.components.attoseconds / 1_000_000_000_000_000
        let deleted = try await log.deleteViewerEvents(receivedBefore: now - retentionMilliseconds)
        var rollup = ViewerStatsRollup()
        var after: Int64 = 0
        var read = 0
        while true {
            let page = try await log.viewerEvents(after: after, limit: Self.page)
            guard let last = page.last else { break }
            rollup.add(page.lazy.map(\.event))
            read += page.count
            after = last.id
        }
        // Only the videos viewed: a catalog of 100,000 videos with no events costs nothing a minute.
        var durations: [String: Double] = [:]
        for id in rollup.videosViewed {
            if let video = try await videos.video(id: id) { durations[id] = Double(video.durationMilliseconds) / 1000 }
        }
        let stats = rollup.stats(durationSeconds: durations).values.sorted { $0.video < $1.video }
        try await log.replaceVideoStats(stats, rolledAt: now)
        return (deleted, read, stats.count)
    }
}
