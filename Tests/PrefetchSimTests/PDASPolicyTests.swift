import Foundation
import TestTraits
import Testing

@testable import PrefetchSim

/// PDAS's formulas one by one, on small hand-made queues.
@Suite(.offThePool, .timeLimit(.minutes(1))) struct PDASPolicyTests {
    /// 7 videos of 10 chunks of 100/200/300 kB and one retention curve.
    func videos(retention: [Double] = [1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1]) -> [ShortVideo] {
        (0..<7).map { v in
            ShortVideo(
                name: "v\(v)", chunkBytes: [100_000, 200_000, 300_000].map { [Int](repeating: $0, count: 10) },
                retention: retention)
        }
    }

    /// T_max = 4 s, so the sums below are round.
    static let fourSeconds = {
        var parameters = PDASPolicy.Parameters()
        parameters.maximumBufferSeconds = 4
        return parameters
    }()

    func plan(
        _ videos: [ShortVideo], playing: Int = 0, position: Int = 0, downloaded: [Int], kbps: Double = 2000,
        parameters: PDASPolicy.Parameters = Self.fourSeconds
    ) -> PDASPlan {
        var view = MMGCView(
            videos: videos, playing: playing, positionMilliseconds: position, downloaded: downloaded,
            throughputKbps: [kbps])
        view.rungs = downloaded.map { [Int](repeating: 0, count: $0) }
        return PDASPlan(view: view, kbps: kbps, parameters: parameters)
    }

    @Test(arguments: [(0.0, 0), (2000.0, 0), (2000.0, 1), (1200.0, 3), (3580.0, 4)])
    func theThresholdIsThePapersFormula(kbps: Double, distance: Int) {
        let p = plan(videos(), downloaded: [1, 0, 0, 0, 0, 0, 0], kbps: kbps)
        let expected = 3.5 * exp(-0.3 * kbps / 1000 - 0.15 * Double(distance))
        #expect(abs(p.threshold(distance) - expected) < 1e-12)
    }

    @Test func theMaximumBufferFollowsTheChanceTheNextChunkIsWatched() {
        // r halves at 4 s: at 0 s the chunk after 4 buffered seconds is watched with p = 0.5.
        let curve = [1, 1, 1, 1, 0.5, 0.5, 0.5, 0.25, 0.25, 0.25, 0.25]
        let p = plan(videos(retention: curve), downloaded: [4, 7, 0, 0, 0, 0, 0], kbps: 20_000)
        #expect(p.nextChunkProbability(0) == 0.5)
        #expect(p.nextChunkProbability(1) == 0.25)
        // b_th is tiny at 20 Mbps, so b_max = p · T_max.
        #expect(abs(p.maximumBuffer(0) - 0.5 * 4) < 1e-12)
        #expect(abs(p.maximumBuffer(1) - 0.25 * 4) < 1e-12)
        // From 5 s into the playing video, its chunk 7 is watched with r(7) / r(5) = 0.5.
        let later = plan(videos(retention: curve), position: 5400, downloaded: [7, 0, 0, 0, 0, 0, 0], kbps: 20_000)
        #expect(later.nextChunkProbability(0) == 0.5)
        // On a slow link b_th takes over: 3.5 · e^(−0.3 · 0.5) for the playing video.
        let slow = plan(videos(retention: curve), downloaded: [4, 0, 0, 0, 0, 0, 0], kbps: 500)
        #expect(abs(slow.maximumBuffer(0) - 3.5 * exp(-0.15)) < 1e-12)
    }

    /// T_max 4 s at 2 Mbps, within 1...5 s: (slope, kbps, T_max).
    @Test(arguments: [
        (0.0, 500.0, 4.0), (1, 2000, 4), (0.5, 1200, 4.4), (1, 500, 5), (1, 3500, 2.5), (2, 100, 5), (2, 5000, 1),
    ])
    func theMaximumBufferLeansOnTheThroughputWithinItsRange(slope: Double, kbps: Double, expected: Double) {
        var parameters = Self.fourSeconds
        parameters.maximumBufferSlope = slope
        parameters.maximumBufferRange = 1...5
        let p = plan(videos(), downloaded: [1, 0, 0, 0, 0, 0, 0], kbps: kbps, parameters: parameters)
        #expect(abs(p.maximumBufferSeconds - expected) < 1e-12)
        // Retention 1 everywhere: b_max is T_max where b_th is below it.
        #expect(abs(p.maximumBuffer(0) - max(expected, p.threshold(0))) < 1e-12)
    }

    @Test func theTargetIsTheFirstVideoInQueueOrderUnderItsMaximum() {
        let all = videos()
        // At 20 Mbps every b_max is T_max = 4 s (retention 1 everywhere).
        #expect(plan(all, downloaded: [2, 0, 0, 0, 0, 0, 0], kbps: 20_000).target == 0)
        #expect(plan(all, position: 0, downloaded: [4, 0, 0, 0, 0, 0, 0], kbps: 20_000).target == 1)
        #expect(plan(all, downloaded: [4, 4, 4, 3, 0, 0, 0], kbps: 20_000).target == 3)
        // Video 5 is beyond the queue of five: every queued buffer full means a sleep.
        #expect(plan(all, downloaded: [4, 4, 4, 4, 4, 0, 0], kbps: 20_000).target == nil)
        // A video with no chunk left is never the target, however little it holds.
        #expect(plan(all, playing: 1, position: 9500, downloaded: [10, 10, 4, 4, 4, 0, 0], kbps: 20_000).target == 5)
    }

    @Test func aSleepLastsUntilThePlayingVideoNeedsAChunkWithinItsBounds() {
        let all = videos()
        // 6 s buffered against b_max 4 s: 2 s surplus, capped at 500 ms.
        #expect(plan(all, downloaded: [6, 4, 4, 4, 4, 0, 0], kbps: 20_000).sleepMilliseconds == 500)
        #expect(plan(all, position: 1700, downloaded: [6, 4, 4, 4, 4, 0, 0], kbps: 20_000).sleepMilliseconds == 300)
        #expect(plan(all, position: 1990, downloaded: [6, 4, 4, 4, 4, 0, 0], kbps: 20_000).sleepMilliseconds == 100)
        // A fully fetched playing video never drains into a fetch: the longest sleep.
        #expect(plan(all, downloaded: [10, 4, 4, 4, 4, 0, 0], kbps: 20_000).sleepMilliseconds == 500)
    }

    @Test func aNextVideoIsPlannedUpToItsMaximumAndThePlayingOneToTheHorizon() {
        let all = videos()
        #expect(plan(all, downloaded: [0, 0, 0, 0, 0, 0, 0], kbps: 20_000).horizon(0) == 5)
        #expect(plan(all, downloaded: [8, 0, 0, 0, 0, 0, 0], kbps: 20_000).horizon(0) == 2)
        #expect(plan(all, downloaded: [10, 1, 0, 0, 0, 0, 0], kbps: 20_000).horizon(1) == 3)
        #expect(plan(all, downloaded: [10, 4, 0, 0, 0, 0, 0], kbps: 20_000).horizon(1) == 1)
    }

    /// One chunk of the playing video with nothing buffered: quality − 1.85 · stall − 0.5 · Mbit, by hand.
    @Test func aPlansValueIsExpectedQualityMinusStallsAndCost() {
        let p = plan(videos(), downloaded: [0, 0, 0, 0, 0, 0, 0], kbps: 1600)
        // 200 kB at 1600 kbps = 1000 ms + 80 ms RTT, all of it a stall; 1.6 Mbit paid.
        let expected = 1.2 - 1.85 * 1.08 - 0.5 * 1.6
        #expect(abs(p.expectedValue(video: 0, plan: [1]) - expected) < 1e-12)
        // A next video's chunk stalls the playing one (fully watched, empty) for its whole download.
        let next = plan(videos(), downloaded: [1, 0, 0, 0, 0, 0, 0], kbps: 1600)
        let stall = max(0, 1080.0 - 1000) / 1000
        #expect(abs(next.expectedValue(video: 1, plan: [1]) - (1.2 - 1.85 * stall - 0.5 * 1.6)) < 1e-12)
    }

    @Test func theRungRisesWithThroughputAndFallsWhenTheChunkIsUnlikelyToBeWatched() {
        let all = videos()
        #expect(plan(all, downloaded: [0, 0, 0, 0, 0, 0, 0], kbps: 300).rung(for: 0) == 0)
        #expect(plan(all, downloaded: [5, 0, 0, 0, 0, 0, 0], kbps: 50_000).rung(for: 0) == 2)
        // Nobody watches past 2 s: the chunks after it are worth nothing and cost bytes, so the cheapest rung.
        let leaving = videos(retention: [1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0])
        #expect(plan(leaving, downloaded: [5, 0, 0, 0, 0, 0, 0], kbps: 50_000).rung(for: 0) == 0)
    }

    @Test func thePolicyStartsLowSleepsWhenFullAndPredictsLikeRobustMPC() {
        var policy = PDASPolicy()
        let start = MMGCView(
            videos: videos(), playing: 0, positionMilliseconds: 0, downloaded: [0, 0, 0, 0, 0, 0, 0],
            throughputKbps: [])
        #expect(policy.decide(start) == .download(video: 0, rung: 0))
        var full = MMGCView(
            videos: videos(), playing: 0, positionMilliseconds: 0, downloaded: [8, 5, 5, 5, 5, 0, 0],
            throughputKbps: [20_000])
        full.rungs = full.downloaded.map { [Int](repeating: 2, count: $0) }
        full.previousStep = .download(bytes: 300_000, milliseconds: 120)
        #expect(policy.decide(full) == .sleep(milliseconds: 500))

        var estimate = RobustThroughput()
        estimate.record(sample: 1000, window: [1000])
        #expect(estimate.predictedKbps == 1000)
        // Predicted 1000, measured 500: error 1, so the harmonic mean of 1000 and 500 is halved.
        estimate.record(sample: 500, window: [1000, 500])
        #expect(abs(estimate.predictedKbps! - (2 / (1 / 1000.0 + 1 / 500.0)) / 2) < 1e-9)
    }
}
