import Testing
import ViewerAnalytics

@Suite(.timeLimit(.minutes(1))) struct EngagementScoreTests {
    static func stats(views: Int, completion: Double, watched: Double) -> VideoStats {
        VideoStats(
            video: "v", views: views, sessions: views, startupMedianMilliseconds: nil, startupP90Milliseconds: nil,
            rebufferRatio: 0, meanWatchedFraction: watched, completionRate: completion, bytesPerView: 0, retention: [1])
    }

    let prior = EngagementScore.Prior(completionRate: 0.3, watchedFraction: 0.5)

    @Test func aFewViewsStayNearThePriorAndManyViewsReachTheirOwnRate() {
        let score = EngagementScore()
        let mean = score.score(nil, prior: prior, ageHours: 0)
        #expect(abs(mean - 0.4) < 1e-12)
        let lucky = score.score(Self.stats(views: 3, completion: 1, watched: 1), prior: prior, ageHours: 0)
        let proven = score.score(Self.stats(views: 3000, completion: 1, watched: 1), prior: prior, ageHours: 0)
        #expect(lucky > mean && lucky < 0.5)
        #expect(proven > 0.99)
    }

    @Test func moreCompletionOrWatchingNeverScoresLessAndAgeHalvesTheScore() {
        let score = EngagementScore()
        let grid = stride(from: 0.0, through: 1, by: 0.1)
        for views in [0, 1, 5, 50, 500] {
            for completion in grid {
                for watched in grid {
                    let base = score.score(
                        Self.stats(views: views, completion: completion, watched: watched), prior: prior, ageHours: 10)
                    let better = score.score(
                        Self.stats(views: views, completion: min(1, completion + 0.1), watched: watched), prior: prior,
                        ageHours: 10)
                    #expect(better >= base)
                    let older = score.score(
                        Self.stats(views: views, completion: completion, watched: watched), prior: prior, ageHours: 58)
                    #expect(abs(older - base / 2) < 1e-12)
                }
            }
        }
    }

    @Test func thePriorIsTheMeanOverViews() {
        let prior = EngagementScore.Prior([
            Self.stats(views: 1, completion: 1, watched: 1), Self.stats(views: 3, completion: 0, watched: 0.2),
        ])
        #expect(abs(prior.completionRate - 0.25) < 1e-12)
        #expect(abs(prior.watchedFraction - 0.4) < 1e-12)
        #expect(EngagementScore.Prior([]) == EngagementScore.Prior(completionRate: 0, watchedFraction: 0))
    }
}
