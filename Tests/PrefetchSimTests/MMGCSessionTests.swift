import PrefetchSim
import TestTraits
import Testing

@Suite(.offThePool, .timeLimit(.minutes(5))) struct MMGCSessionTests {
    /// 7 videos of `chunks` 1 s chunks of 100/200/300 kB, everyone keeps watching.
    func catalog(chunks: Int = 4) -> [ShortVideo] {
        (0..<7).map { i in
            ShortVideo(
                name: "v\(i)", chunkBytes: [100_000, 200_000, 300_000].map { [Int](repeating: $0, count: chunks) },
                retention: [Double](repeating: 1, count: chunks + 1))
        }
    }

    func constant(_ mbps: Double, seconds: Int = 100) -> NetworkTrace {
        NetworkTrace(
            name: "flat", times: (0...seconds).map(Double.init), mbps: [Double](repeating: mbps, count: seconds + 1))
    }

    @Test func transferIntegratesTheTracePiecewiseAndSkipsRowZero() {
        let trace = NetworkTrace(name: "t", times: [0, 1, 2, 3], mbps: [999, 8, 16, 16])
        var clock = trace.challengeStart
        // 950 000 B in the first second at 0.95 × 8 Mbps, then 475 000 B at 0.95 × 16 Mbps = 0.25 s.
        #expect(abs(trace.transfer(bytes: 1_425_000, efficiency: 0.95, from: &clock) - 1.25) < 1e-9)
        #expect(abs(clock.time - 1.25) < 1e-9)
    }

    @Test func traceLoopsAtItsEnd() {
        let trace = NetworkTrace(name: "t", times: [0, 1], mbps: [0, 8])
        var clock = trace.challengeStart
        #expect(abs(trace.transfer(bytes: 2_000_000, efficiency: 1, from: &clock) - 2) < 1e-9)
    }

    @Test func rungIsTheHighestUnderEightyPercentOfTheHarmonicMean() {
        #expect(MMGCRates.rung(for: []) == 0)
        #expect(MMGCRates.rung(for: [1000]) == 0)
        #expect(MMGCRates.rung(for: [1600]) == 1)
        #expect(MMGCRates.rung(for: [2400]) == 2)
        // Harmonic mean of 500 and 5000 is about 909: one slow sample drags the choice down.
        #expect(MMGCRates.rung(for: [500, 5000]) == 0)
    }

    @Test func fixedWindowRulesComeInOrder() {
        let videos = catalog(chunks: 20)
        let w2 = FixedWindowPolicy.w2
        func view(downloaded: [Int], position: Int = 0) -> MMGCView {
            MMGCView(
                videos: videos, playing: 0, positionMilliseconds: position, downloaded: downloaded, throughputKbps: [])
        }
        // Rule 1: under 3 s buffered, the playing video first.
        #expect(w2.decide(view(downloaded: [2, 0, 0, 0, 0, 0, 0])) == .download(video: 0, rung: 0))
        // Rule 2: then the next two videos up to 3 chunks, in queue order.
        #expect(w2.decide(view(downloaded: [3, 3, 1, 0, 0, 0, 0])) == .download(video: 2, rung: 0))
        // Rule 3: then the playing video up to 10 s.
        #expect(w2.decide(view(downloaded: [5, 3, 3, 0, 0, 0, 0])) == .download(video: 0, rung: 0))
        // Rule 4: otherwise sleep.
        #expect(w2.decide(view(downloaded: [12, 3, 3, 0, 0, 0, 0], position: 1000)) == .sleep(milliseconds: 500))
        #expect(FixedWindowPolicy.w0.decide(view(downloaded: [3, 0, 0, 0, 0, 0, 0])) == .download(video: 0, rung: 0))
    }

    @Test func fastLinkWatchingEverythingOnlyStallsAtTheStart() {
        let videos = catalog()
        let session = MMGCSession(videos: videos, watch: [Int](repeating: 4000, count: 7), trace: constant(100))
        var carried = [Double](repeating: -1, count: 7)
        let result = session.run(FixedWindowPolicy.w1, lastChunkBitrate: &carried)
        #expect(result.wastedBytes == 0)
        #expect(result.chunksDownloaded == 28)
        #expect(result.watchMilliseconds == 28_000)
        // Only the first chunk of video 0 is waited for: 100 kB at 95 Mbps plus the 80 ms RTT.
        #expect(result.rebufferMilliseconds == 88)
        #expect(abs(result.score - (result.qoe - 0.5 * result.bytesDownloaded * 8 / 1_000_000)) < 1e-9)
    }

    @Test func leavingEarlyWastesTheChunksBeyondTheWatchTime() {
        let videos = catalog(chunks: 10)
        // The user leaves every video after 1.5 s; W0 buffers the playing video up to 10 s.
        let session = MMGCSession(videos: videos, watch: [Int](repeating: 1500, count: 7), trace: constant(100))
        var carried = [Double](repeating: -1, count: 7)
        let result = session.run(FixedWindowPolicy.w0, lastChunkBitrate: &carried)
        #expect(result.wastedBytes > 0)
        #expect(result.wastedBytes < result.bytesDownloaded)
    }

    @Test func seededUsersAreReproducible() {
        let videos = (0..<7).map { i in
            ShortVideo(
                name: "v\(i)", chunkBytes: [[Int]](repeating: [Int](repeating: 1000, count: 10), count: 3),
                retention: (0...10).map { 1 - Double($0) * 0.08 })
        }
        let sampler = UserSampler(videos: videos)
        #expect(sampler.users(20, seed: 42) == sampler.users(20, seed: 42))
        #expect(sampler.users(20, seed: 42) != sampler.users(20, seed: 43))
        for user in sampler.users(200, seed: 1) { #expect(user.allSatisfy { (0...10_000).contains($0) }) }
        // r(10) = 0.2: about a fifth of users watch to the end.
        let full = sampler.users(2000, seed: 9).flatMap { $0 }.filter { $0 == 10_000 }.count
        let expected = 2000 * 7 / 5
        #expect(abs(full - expected) <= 300, "\(full) full watches, about \(expected) expected")
    }
}

extension MMGCDecision {
    var rung: Int { if case let .download(_, rung) = self { rung } else { -1 } }
}
