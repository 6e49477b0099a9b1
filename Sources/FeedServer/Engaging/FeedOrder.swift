package import Catalog

/// `reel serve --feed-order`: which order `GET /v1/feed` pages through.
package enum FeedOrder: Sendable {
    /// Newest first: the keyset feed, its page cache and its event-loop fast path.
    case recent
    /// By how viewers engage (docs/analytics.md): pages of stored rankings (`FeedRanking`), which the catalog's
    /// figures (`ViewerEventLog`) make.
    case engaging(any FeedRanking & ViewerEventLog)
}
