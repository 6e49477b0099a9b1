import Foundation

/// The `engaging` feed order's score for one video (docs/analytics.md): completion rate and watched fraction, each
/// smoothed toward the catalog's mean by `priorViews` imaginary views, averaged, and halved every `halfLifeHours`
/// of the video's age. A video with 3 views sits near the mean instead of at 0 or 1.
package struct EngagementScore: Sendable, Equatable {
    package var priorViews = 20.0
    package var halfLifeHours = 48.0

    package init() {}

    /// The catalog-wide means the smoothing pulls toward: over all views, not over videos.
    package struct Prior: Sendable, Equatable {
        package var completionRate: Double
        package var watchedFraction: Double

        package init(completionRate: Double, watchedFraction: Double) {
            self.completionRate = completionRate
            self.watchedFraction = watchedFraction
        }

        package init(_ stats: some Collection<VideoStats>) {
            let views = Double(stats.map(\.views).reduce(0, +))
            guard views > 0 else {
                self.init(completionRate: 0, watchedFraction: 0)
                return
            }
            self.init(
                completionRate: stats.map { $0.completionRate * Double($0.views) }.reduce(0, +) / views,
                watchedFraction: stats.map { $0.meanWatchedFraction * Double($0.views) }.reduce(0, +) / views)
        }
    }

    /// A video with no views scores the prior, decayed by its age.
    package func score(_ stats: VideoStats?, prior: Prior, ageHours: Double) -> Double {
        let views = Double(stats?.views ?? 0)
        func smoothed(_ rate: Double?, _ mean: Double) -> Double {
            (views * (rate ?? 0) + priorViews * mean) / (views + priorViews)
        }
        let completion = smoothed(stats?.completionRate, prior.completionRate)
        let watched = smoothed(stats?.meanWatchedFraction, prior.watchedFraction)
        return (completion + watched) / 2 * pow(0.5, max(0, ageHours) / halfLifeHours)
    }
}
