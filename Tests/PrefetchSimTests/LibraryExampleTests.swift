import PrefetchSim
import Testing

/// The example from docs/simulator.md, kept compiling and true.
@Suite struct LibraryExampleTests {
    @Test func windowOfTwoBeatsCurrentOnlyOnAFlatLink() throws {
        let videos = (0..<7).map { i in
            ShortVideo(name: "v\(i)", chunkBytes: [100_000, 200_000, 300_000].map { [Int](repeating: $0, count: 10) },
                       retention: [Double](repeating: 1, count: 11))
        }
        let link = NetworkTrace(name: "2 Mbps", times: (0...600).map(Double.init), mbps: [Double](repeating: 2, count: 601))
        let users = [3000, 9000, 1500, 10_000, 2000, 4000, 10_000]
        var carried = [Double](repeating: -1, count: 7)
        let none = MMGCSession(videos: videos, watch: users, trace: link).run(try #require(FixedWindowPolicy.named("W0")), lastChunkBitrate: &carried)
        carried = [Double](repeating: -1, count: 7)
        let window = MMGCSession(videos: videos, watch: users, trace: link).run(try #require(FixedWindowPolicy.named("W2")), lastChunkBitrate: &carried)
        #expect(window.rebufferMilliseconds < none.rebufferMilliseconds)
    }
}
