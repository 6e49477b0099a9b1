import PrefetchSim
import TestTraits
import Testing

/// The example from docs/simulator.md, kept compiling and true.
@Suite(.offThePool, .timeLimit(.minutes(5))) struct LibraryExampleTests {
    @Test func windowOfTwoBeatsCurrentOnlyOnAFlatLink() {
        let videos = (0..<7).map { i in
            ShortVideo(
                name: "v\(i)", chunkBytes: [100_000, 200_000, 300_000].map { [Int](repeating: $0, count: 10) },
                retention: [Double](repeating: 1, count: 11))
        }
        let link = NetworkTrace(
            name: "2 Mbps", times: (0...600).map(Double.init), mbps: [Double](repeating: 2, count: 601))
        let users = [3000, 9000, 1500, 10_000, 2000, 4000, 10_000]
        var carried = [Double](repeating: -1, count: 7)
        let none = MMGCSession(videos: videos, watch: users, trace: link).run(
            FixedWindowPolicy.w0, lastChunkBitrate: &carried)
        carried = [Double](repeating: -1, count: 7)
        let window = MMGCSession(videos: videos, watch: users, trace: link).run(
            FixedWindowPolicy.w2, lastChunkBitrate: &carried)
        #expect(window.rebufferMilliseconds < none.rebufferMilliseconds)
    }
}

extension LibraryExampleTests {
    /// The scripted-scroll example from docs/cli.md (`reel simulate`).
    @Test func scriptedScrollOnAThreeGLink() {
        let videos = (0..<5).map { i in
            ShortVideo(
                name: "v\(i)", chunkBytes: [60_000, 150_000, 230_000].map { [Int](repeating: $0, count: 10) },
                retention: (0...10).map { 1 - Double($0) * 0.05 })
        }
        let trace = NetworkTrace(
            name: "3G", times: (0...300).map(Double.init), mbps: [Double](repeating: 1.5, count: 301))
        var configuration = ClientConfiguration()
        configuration.networkClass = .cellular3G
        let report = FeedClientSimulator(catalog: videos, network: trace, configuration: configuration)
            .run([
                .watch(milliseconds: 3000), .swipe, .watch(milliseconds: 2000), .swipeBack, .waitForPage,
                .memoryWarning,
            ])
        #expect(report.playersCreated <= 3)
        #expect(!report.prefetched(1).isEmpty)
        #expect(report.prefetched(1).allSatisfy { $0.rung == 0 })  // which chunks of item 1, when, at which rung
        #expect(report.prefetchHitRate == 1)
    }
}
