import Foundation
import TestTraits
import Testing

@testable import PrefetchSim

/// The challenge's two baselines, rule by rule, and against its real simulator on its own users.
@Suite(.offThePool, .timeLimit(.minutes(5))) struct ChallengeBaselineTests {
    /// 7 videos of `chunks` 1 s chunks; video v's chunk costs `base + v·1000` B at rung 0 (×2, ×3 above).
    func videos(chunks: Int = 8, base: Int = 300_000, retention: [Double]? = nil) -> [ShortVideo] {
        (0..<7).map { v in
            ShortVideo(
                name: "v\(v)",
                chunkBytes: [1, 2, 3].map { [Int](repeating: $0 * (base + v * 1000), count: chunks) },
                retention: retention ?? [Double](repeating: 1, count: chunks + 1))
        }
    }

    func view(
        _ videos: [ShortVideo], playing: Int = 0, position: Int = 0, downloaded: [Int], rung: Int = 0,
        previous: MMGCStep? = .download(bytes: 300_000, milliseconds: 1000)
    ) -> MMGCView {
        var view = MMGCView(
            videos: videos, playing: playing, positionMilliseconds: position, downloaded: downloaded,
            throughputKbps: [2400])
        view.rungs = downloaded.map { [Int](repeating: rung, count: $0) }
        view.previousStep = previous
        return view
    }

    @Test func theFirstStepsAreTheBaselinesOwn() {
        let start = view(videos(), downloaded: [0, 0, 0, 0, 0, 0, 0], previous: nil)
        var noSave = NoSavePolicy()
        #expect(noSave.decide(start) == .download(video: 0, rung: 2))
        #expect(FixedPreloadPolicy().decide(start) == .download(video: 0, rung: 0))
    }

    /// no_save's preload order, read as its loop reads it: raise the level k = 1, 2, … until a next video with
    /// chunks left holds under k · 800 000 B, and take the first such in queue order. Every mix of 0–7 chunks on
    /// the four next videos, with sizes that fall on both sides of the levels.
    @Test func noSavePreloadsTheFirstVideoInTheLowestLevel() {
        let catalog = videos(chunks: 7)
        var checked = 0
        for a in 0...7 {
            for b in 0...7 {
                for c in 0...7 {
                    for d in 0...7 {
                        let downloaded = [7, a, b, c, d, 0, 0]
                        let seen = view(catalog, downloaded: downloaded)
                        let open = (1...4).filter { downloaded[$0] < 7 }
                        var expected: Int?
                        var k = 1
                        while expected == nil, !open.isEmpty {
                            expected = open.first { seen.downloadedBytes($0) < 800_000 * k }
                            k += 1
                        }
                        #expect(NoSavePolicy.target(seen) == expected, "\(downloaded)")
                        checked += 1
                    }
                }
            }
        }
        #expect(checked == 4096)
        // The playing video comes first while it has a chunk left, whatever the others hold.
        #expect(NoSavePolicy.target(view(catalog, downloaded: [6, 0, 0, 0, 0, 0, 0])) == 0)
        var policy = NoSavePolicy()
        #expect(policy.decide(view(catalog, downloaded: [7, 7, 7, 7, 7, 0, 0])) == .sleep(milliseconds: 500))
    }

    /// fixed_preload takes its rung from the buffer of the video it downloads, above 1 s and above 2 s.
    @Test(arguments: [(999, 0), (1000, 0), (1001, 1), (2000, 1), (2001, 2), (7000, 2)])
    func fixedPreloadPicksTheRungFromThatVideosBuffer(buffer: Int, rung: Int) {
        let catalog = videos()
        let topUp = view(catalog, position: 7000 - buffer, downloaded: [7, 3, 3, 3, 3, 0, 0])
        #expect(FixedPreloadPolicy().decide(topUp) == .download(video: 0, rung: rung))
    }

    @Test func fixedPreloadTakesUpToFourChunksWhileRetentionHolds() {
        // r(3) / r(0) = 0.66 passes the strict 0.65 gate, r(4) is never asked: four chunks is the cap.
        let curve = [1, 0.9, 0.8, 0.66, 0.5, 0.4, 0.3, 0.2, 0.1]
        let catalog = videos(retention: curve)
        let policy = FixedPreloadPolicy()
        // The next video in queue order with a chunk to take; neighbours with 1 s buffered get rung 0.
        #expect(policy.decide(view(catalog, downloaded: [8, 0, 0, 0, 0, 0, 0])) == .download(video: 1, rung: 0))
        #expect(policy.decide(view(catalog, downloaded: [8, 3, 0, 0, 0, 0, 0])) == .download(video: 1, rung: 2))
        #expect(policy.decide(view(catalog, downloaded: [8, 4, 2, 0, 0, 0, 0])) == .download(video: 2, rung: 1))
        #expect(policy.decide(view(catalog, downloaded: [8, 4, 4, 4, 4, 0, 0])) == .sleep(milliseconds: 500))
        let steep = videos(retention: [1, 0.9, 0.8, 0.65, 0.5, 0.4, 0.3, 0.2, 0.1])
        // r(3) = 0.65 is not above the gate: the video stops at 3 and the next one is taken.
        #expect(policy.decide(view(steep, downloaded: [8, 3, 0, 0, 0, 0, 0])) == .download(video: 2, rung: 0))
    }

    /// RobustMPC against a plain recursive reading of the module: plans in itertools order, the best value with
    /// the last plan winning ties, and the "previous rung" carried from each plan into the next.
    @Test func robustMPCAgreesWithARecursiveReadingOfTheModule() {
        let sizes = [
            [90_000, 240_000, 130_000, 60_000, 200_000], [150_000, 300_000, 210_000, 110_000, 330_000],
            [260_000, 420_000, 330_000, 170_000, 500_000],
        ]
        var differentAnswers = Set<Int>()
        for horizon in 1...5 {
            for buffer in stride(from: 0.0, through: 6000, by: 750) {
                for throughput in [0.05, 0.1, 0.15, 0.2, 0.3, 0.5, 1, 3] {
                    for previous in 0...2 {
                        let fast = RobustMPC.firstRung(
                            horizon: horizon, bufferMilliseconds: buffer, previousRung: previous,
                            throughputMBps: throughput
                        ) { sizes[$0][$1] }
                        let slow = Self.recursiveMPC(
                            sizes: sizes, horizon: horizon, buffer: buffer, previous: previous, throughput: throughput)
                        #expect(fast == slow, "horizon \(horizon) buffer \(buffer) MB/s \(throughput) prev \(previous)")
                        differentAnswers.insert(fast)
                    }
                }
            }
        }
        #expect(differentAnswers == [0, 1, 2])
    }

    static func recursiveMPC(sizes: [[Int]], horizon: Int, buffer: Double, previous: Int, throughput: Double) -> Int {
        let mbps = [0.75, 1.2, 1.85]
        var plans: [[Int]] = [[]]
        for _ in 0..<horizon { plans = plans.flatMap { plan in (0...2).map { plan + [$0] } } }
        var last = previous
        var best = (value: -Double.infinity, first: 0)
        for plan in plans {
            var stalled = 0.0, left = buffer, value = 0.0
            for (k, rung) in plan.enumerated() {
                let seconds = Double(sizes[rung][k]) / 1_000_000 / throughput * 1000
                stalled += max(0, seconds - left)
                left = max(0, left - seconds) + 1000
                value += mbps[rung] - abs(mbps[rung] - mbps[last])
                last = rung
            }
            value -= 4.3 * stalled / 1000
            if value >= best.value - 1e-12 { best = (value, plan[0]) }
        }
        return best.first
    }
}

extension ChallengeBaselineTests {
    static let data: String? = {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
        let path = root.appendingPathComponent("shared/data/prefetch/mmgc2022").path
        return FileManager.default.fileExists(atPath: path + "/user_ret") ? path : nil
    }()

    /// Users 0–2 of seed 42 on the medium set, as printed by the challenge's own simulator
    /// (`scripts/mmgc-challenge-reference.py CHECKOUT POLICY medium 3`, 2026-11-28).
    @Test(
        .enabled(if: data != nil, "needs ../shared/data/prefetch"),
        arguments: [
            (PolicyName.noSave, [21.400866066666662, 16405573.066666665, 87.02315833333334, 3197120.1999999997]),
            (PolicyName.fixedPreload, [9.362664366666666, 17262116.2, 78.41112916666667, 2260005.4333333336]),
        ])
    func baselinesScoreTheChallengesUsersAsItsSimulatorDoes(policy: PolicyName, printed: [Double]) throws {
        let data = try #require(Self.data)
        let runner = MMGCRunner(
            catalog: try MMGCData.catalog(at: data + "/short_video_size", retention: data + "/user_ret"),
            traces: try MMGCData.traces(in: data + "/network_traces/medium"))
        let users = try SimulatedUsers.challenge(3).watchTimes(videos: runner.sessionVideos, seed: 42)
        let result = runner.run(policy.makeMMGCPolicy(), users: users)
        let ours = [result.score, result.bytesDownloaded, result.qoe, result.wastedBytes]
        for (name, (mine, theirs)) in zip(["score", "bytes", "QoE", "wasted"], zip(ours, printed)) {
            #expect(abs(mine - theirs) <= 1e-9 * max(1, abs(theirs)), "\(policy) \(name): \(mine) vs \(theirs)")
        }
    }
}
