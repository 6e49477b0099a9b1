import Foundation

/// The `engaging` feed order (docs/analytics.md): every published video by `EngagementScore`, highest first; equal
/// scores newest first, then by id, so one input always gives one order.
///
/// Time alone never reorders it: every score decays by the same factor as the clock moves, so only new figures or
/// new videos make a different order (`EngagingOrderTests`). That keeps the stored rankings few.
package enum EngagingOrder {
    /// A published video as the ranking sees it.
    package struct Candidate: Sendable, Equatable, Hashable {
        package var id: String
        /// Unix milliseconds.
        package var publishedAt: Int64

        package init(id: String, publishedAt: Int64) {
            self.id = id
            self.publishedAt = publishedAt
        }
    }

    /// `candidates` in engaging order at `now` (Unix milliseconds), from each video's figures (none: no views yet).
    package static func rank(
        _ candidates: [Candidate], stats: [String: VideoStats], now: Int64, score: EngagementScore = .init()
    ) -> [String] {
        let prior = EngagementScore.Prior(candidates.compactMap { stats[$0.id] })
        // Compared as log2(score): the undecayed score's log less the half-lives of age. A score itself underflows
        // to 0 after about 6 years of age, which would tie old videos and let time reorder them.
        let scored = candidates.map { candidate in
            let age = Double(now - candidate.publishedAt) / 3_600_000
            let undecayed = score.score(stats[candidate.id], prior: prior, ageHours: 0)
            return (candidate, log2(undecayed) - age / score.halfLifeHours)
        }
        return scored.sorted { a, b in
            if a.1 != b.1 { return a.1 > b.1 }
            if a.0.publishedAt != b.0.publishedAt { return a.0.publishedAt > b.0.publishedAt }
            return a.0.id > b.0.id
        }.map(\.0.id)
    }
}
