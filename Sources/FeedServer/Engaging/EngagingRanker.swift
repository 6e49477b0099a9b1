package import Catalog
internal import ViewerAnalytics

/// Makes the engaging feed's rankings from the catalog's figures and stores them (`FeedRanking`). A new ranking is
/// stored only when its order differs from the newest one's, and rankings made more than `kept` ago go, except the
/// newest: a cursor older than that is answered 410.
package struct EngagingRanker: Sendable {
    let catalog: any FeedRanking & ViewerEventLog
    /// How long a ranking stays for the cursors paging through it.
    package static let kept: Duration = .seconds(3600)

    package init(catalog: any FeedRanking & ViewerEventLog) {
        self.catalog = catalog
    }

    package struct Outcome: Sendable, Equatable {
        /// The newest ranking's number afterwards.
        package var ranking: Int64
        /// Whether this pass stored it (false: the order had not changed).
        package var stored: Bool
        package var deleted: Int
    }

    /// One pass at `now` (Unix milliseconds).
    @discardableResult
    package func refresh(now: Int64) async throws(CatalogError) -> Outcome {
        let candidates = try await catalog.rankingCandidates()
        var stats: [String: VideoStats] = [:]
        for figures in try await catalog.allVideoStats() { stats[figures.video] = figures }
        let order = EngagingOrder.rank(candidates, stats: stats, now: now)
        let keptMilliseconds = Self.kept.components.seconds * 1000
        if let newest = try await catalog.latestRankingNumber(),
            let stored = try await catalog.ranking(number: newest), stored.videos == order
        {
            let deleted = try await catalog.deleteRankings(madeBefore: now - keptMilliseconds)
            return Outcome(ranking: newest, stored: false, deleted: deleted)
        }
        let number = try await catalog.storeRanking(order, madeAt: now)
        let deleted = try await catalog.deleteRankings(madeBefore: now - keptMilliseconds)
        return Outcome(ranking: number, stored: true, deleted: deleted)
    }
}
