package import Catalog
internal import Foundation
package import Logging
package import ServiceLifecycle
internal import ViewerAnalytics

/// Every `--stats-interval` (a minute by default): deletes the events older than `--events-retention`, adds the
/// events stored since the last pass to per-video figures (`ViewerStatsRollup`, kept in `ViewerStatsPasses`) and
/// replaces the stored figures with them in one transaction. The figures therefore cover the retention window. Idempotent, so several servers on one PostgreSQL catalog may each
/// run it. With `ranker` (`--feed-order engaging`) each pass then makes the engaging ranking from the new figures; the
/// first pass makes one from the stored figures before it rolls up, so the feed has a ranking within moments of
/// starting.
package struct ViewerStatsService: Service {
    let log: any ViewerEventLog
    let videos: any FeedReading
    let retention: Duration
    let interval: Duration
    let ranker: EngagingRanker?
    let logger: Logger
    /// The figures and the reading position kept from pass to pass.
    let passes = ViewerStatsPasses()
    /// Events read per query while rolling up.
    static let page = 10_000

    package init(
        log: any ViewerEventLog, videos: any FeedReading, retention: Duration, interval: Duration = .seconds(60),
        ranker: EngagingRanker? = nil, logger: Logger
    ) {
        self.ranker = ranker
        self.log = log
        self.videos = videos
        self.retention = retention
        self.interval = interval
        self.logger = logger
    }

    package func run() async throws {
        await cancelWhenGracefulShutdown {
            await rank(after: "starting")
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
                await rank(after: "rolling up")
                try? await Task.sleep(for: interval)
            }
        }
    }

    /// The engaging ranking from the stored figures, when this server serves that order.
    func rank(after step: String) async {
        guard let ranker else { return }
        do {
            let outcome = try await ranker.refresh(now: Int64(Date().timeIntervalSince1970 * 1000))
            logger.debug(
                "engaging ranking made after \(step)",
                metadata: [
                    "ranking": "\(outcome.ranking)", "stored": "\(outcome.stored)", "deleted": "\(outcome.deleted)",
                ])
        } catch {
            logger.error("cannot make the engaging ranking yet", metadata: ["error": "\(error)"])
        }
    }

    /// One pass at `now` (Unix milliseconds): how many events it deleted and read, and how many videos have figures.
    @discardableResult
    package func rollUp(now: Int64) async throws(CatalogError) -> (deleted: Int, events: Int, videos: Int) {
        let retentionMilliseconds =
            retention.components.seconds * 1000 + retention.components.attoseconds / 1_000_000_000_000_000
        return try await passes.pass(
            now: now, cutoff: now - retentionMilliseconds, log: log, videos: videos, page: Self.page)
    }
}
