import Foundation
import TestTraits
import Testing

@testable import PrefetchSim

/// `lookahead`'s valuation, on small hand-made queues: the scenario mean, and the boundary terms.
@Suite(.offThePool, .timeLimit(.minutes(1))) struct LookaheadPolicyTests {
    /// 7 videos of 10 chunks of 100/200/300 kB.
    func videos(retention: [Double] = [Double](repeating: 1, count: 11)) -> [ShortVideo] {
        (0..<7).map { v in
            ShortVideo(
                name: "v\(v)", chunkBytes: [100_000, 200_000, 300_000].map { [Int](repeating: $0, count: 10) },
                retention: retention)
        }
    }

    func view(
        _ videos: [ShortVideo], position: Int = 0, downloaded: [Int], rungs: Int = 0, samples: [Double] = [2000]
    ) -> MMGCView {
        var view = MMGCView(
            videos: videos, playing: 0, positionMilliseconds: position, downloaded: downloaded,
            throughputKbps: samples)
        view.rungs = downloaded.map { [Int](repeating: rungs, count: $0) }
        return view
    }

    func lookahead(_ view: MMGCView, kbps: Double = 2000, scenarios: [Double], boundary: Bool) -> LookaheadPlan {
        LookaheadPlan(
            buffers: PDASPlan(view: view, kbps: kbps, parameters: PDASPolicy.Parameters()), scenarios: scenarios,
            valuesBoundary: boundary)
    }

    @Test(arguments: [[0], [1], [2], [0, 1, 2], [2, 2, 0], [1, 0, 2, 1, 0]])
    func oneScenarioWithoutTheBoundaryIsPDAS(plan: [Int]) {
        let v = view(videos(), position: 700, downloaded: [3, 1, 0, 0, 0, 0, 0], rungs: 1)
        let pdas = PDASPlan(view: v, kbps: 1500, parameters: PDASPolicy.Parameters())
        let same = lookahead(v, kbps: 1500, scenarios: [1500], boundary: false)
        for video in 0...2 {
            #expect(same.expectedValue(video: video, plan: plan) == pdas.expectedValue(video: video, plan: plan))
            #expect(same.rung(for: video) == pdas.rung(for: video))
        }
    }

    @Test func aPlanIsValuedAtTheMeanOfItsScenarios() {
        let v = view(videos(), downloaded: [2, 0, 0, 0, 0, 0, 0], rungs: 1)
        let both = lookahead(v, scenarios: [800, 3000], boundary: false)
        let slow = lookahead(v, scenarios: [800], boundary: false)
        let fast = lookahead(v, scenarios: [3000], boundary: false)
        for plan in [[0], [2, 2], [1, 0, 2]] {
            let mean = (slow.expectedValue(video: 0, plan: plan) + fast.expectedValue(video: 0, plan: plan)) / 2
            #expect(abs(both.expectedValue(video: 0, plan: plan) - mean) < 1e-12)
        }
        // A slow scenario among fast ones pulls the rung down where the fast ones alone would not.
        #expect(lookahead(v, scenarios: [20_000], boundary: false).rung(for: 0) == 2)
        #expect(lookahead(v, scenarios: [20_000, 20_000, 300], boundary: false).rung(for: 0) < 2)
    }

    @Test func theBoundaryIsChargedWhileThePreviousVideosLastWatchedChunkIsToCome() {
        // r halves at 4 s: 4 of 10 chunks of the playing video fetched, so P(its last watched is to come) = 0.5.
        let curve = [1, 1, 1, 1, 0.5, 0.5, 0.5, 0.25, 0.25, 0.25, 0.25]
        let plan = lookahead(
            view(videos(retention: curve), downloaded: [4, 0, 0, 0, 0, 0, 0]), scenarios: [2000],
            boundary: true)
        #expect(plan.buffers.boundaryChargeProbability(1) == 0.5)
        // Video 2's chunk 0 is charged when video 1's last watched one, not yet fetched, arrives: P = r(0)/r(0).
        #expect(plan.buffers.boundaryChargeProbability(2) == 1)
        // Nothing to charge: the playing video itself, a video whose chunk 0 is there, a finished previous video.
        #expect(plan.buffers.boundaryChargeProbability(0) == 0)
        let started = lookahead(
            view(videos(retention: curve), downloaded: [4, 1, 0, 0, 0, 0, 0]), scenarios: [2000], boundary: true)
        #expect(started.buffers.boundaryChargeProbability(1) == 0)
        let finished = lookahead(
            view(videos(retention: curve), downloaded: [10, 0, 0, 0, 0, 0, 0]), scenarios: [2000], boundary: true)
        #expect(finished.buffers.boundaryChargeProbability(1) == 0)
    }

    /// A next video's first chunk, by hand: quality, the switch from the previous video's rung, the boundary
    /// charge at P = 1, its bytes; the playing video has 5 s buffered, so no stall.
    @Test func aNextVideosFirstChunkPaysTheBoundary() {
        let v = view(videos(), downloaded: [5, 0, 0, 0, 0, 0, 0], rungs: 0)
        let plan = lookahead(v, scenarios: [4000], boundary: true)
        let expected = 1.85 - abs(1.85 - 0.75) - 1 * 1.85 - 0.5 * 2.4
        #expect(abs(plan.expectedValue(video: 1, plan: [2]) - expected) < 1e-12)
        // Unvalued, the same chunk is worth its quality less its bytes, and the high rung wins on a fast link;
        // valued, the cheapest first chunk does.
        #expect(lookahead(v, kbps: 20_000, scenarios: [20_000], boundary: false).rung(for: 1) == 2)
        #expect(lookahead(v, kbps: 20_000, scenarios: [20_000], boundary: true).rung(for: 1) == 0)
    }

    @Test func thePolicyStartsLowThenFollowsItsPlan() {
        var policy = LookaheadPolicy()
        let start = MMGCView(
            videos: videos(), playing: 0, positionMilliseconds: 0, downloaded: [0, 0, 0, 0, 0, 0, 0],
            throughputKbps: [])
        #expect(policy.decide(start) == .download(video: 0, rung: 0))
        var fast = view(videos(), downloaded: [2, 0, 0, 0, 0, 0, 0], rungs: 2, samples: [20_000, 20_000])
        fast.previousStep = .download(bytes: 300_000, milliseconds: 120)
        // At 19 Mbps (20 × 0.95) T_max is at its 1 s floor: the playing video's 2 s are enough, and the next
        // video's first chunk comes at the rung the playing one is on.
        #expect(policy.decide(fast) == .download(video: 1, rung: 2))
        // At 1.9 Mbps T_max is 2.55 s, and the playing video's 2 s are not.
        var slow = view(videos(), downloaded: [2, 0, 0, 0, 0, 0, 0], rungs: 1, samples: [2000, 2000])
        slow.previousStep = .download(bytes: 200_000, milliseconds: 880)
        let decision = policy.decide(slow)
        #expect(
            {
                if case .download(video: 0, _) = decision { return true }
                return false
            }(), "\(decision)")
        var full = view(videos(), downloaded: [8, 5, 5, 5, 5, 0, 0], rungs: 2, samples: [20_000])
        full.previousStep = .download(bytes: 300_000, milliseconds: 120)
        #expect(policy.decide(full) == .sleep(milliseconds: 500))
    }
}
