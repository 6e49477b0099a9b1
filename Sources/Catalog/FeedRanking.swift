package import ViewerAnalytics

/// The `engaging` feed's rankings (docs/analytics.md): each one a frozen order of the published videos, stored in the
/// catalog so that every feed server on it pages through the same one, and a cursor that began on a ranking finishes
/// on it however the scores move meanwhile. Rankings are never changed, only added and, once old, deleted.
package protocol FeedRanking: Sendable {
    /// Every published video's id and publish time: what a ranking orders.
    func rankingCandidates() async throws(CatalogError) -> [EngagingOrder.Candidate]
    /// Stores `videos`, in order, as a new ranking made at `madeAt` (Unix milliseconds); returns its number. Numbers
    /// only grow and are never used twice.
    func storeRanking(_ videos: [String], madeAt: Int64) async throws(CatalogError) -> Int64
    /// The newest ranking's number, or nil before the first.
    func latestRankingNumber() async throws(CatalogError) -> Int64?
    /// A stored ranking, or nil when there is none by that number (never made, or deleted).
    func ranking(number: Int64) async throws(CatalogError) -> StoredRanking?
    /// Deletes the rankings made before `madeBefore`, never the newest one; returns how many went.
    func deleteRankings(madeBefore: Int64) async throws(CatalogError) -> Int
    /// The feed items of those of `ids` that are published, by id: a ranked page's items.
    func publishedItems(ids: [String]) async throws(CatalogError) -> [String: FeedItem]
}

/// One stored ranking: its number, when it was made and the video ids in feed order.
package struct StoredRanking: Sendable, Equatable {
    package var number: Int64
    package var madeAt: Int64
    package var videos: [String]

    package init(number: Int64, madeAt: Int64, videos: [String]) {
        self.number = number
        self.madeAt = madeAt
        self.videos = videos
    }
}
