import PrefetchSim
import TestTraits
import Testing

/// `aware` in the client model: retention caps per neighbour, cautious first chunks, the playing item first on a
/// slow link, and a connection that wakes when playback drains the buffer.
@Suite(.offThePool, .timeLimit(.minutes(5))) struct RetentionPrefetchTests {
    static func video(_ name: String, retention: [Double], chunks: Int = 8) -> ShortVideo {
        ShortVideo(
            name: name, chunkBytes: [120_000, 240_000, 400_000].map { [Int](repeating: $0, count: chunks) },
            retention: retention)
    }

    static func flat(_ mbps: Double) -> NetworkTrace {
        NetworkTrace(
            name: "\(mbps) Mbps", times: (0...600).map(Double.init), mbps: [Double](repeating: mbps, count: 601))
    }

    static func run(
        _ catalog: [ShortVideo], _ script: [ScrollStep], mbps: Double, policy: PolicyName
    ) throws -> ClientReport {
        var configuration = try ClientRun.configuration(policy: policy, base: ClientConfiguration())
        configuration.feedLength = 20
        return FeedClientSimulator(catalog: catalog, network: flat(mbps), configuration: configuration).run(script)
    }

    @Test func theCapIsTheSecondsWhoseRetentionStaysAboveKeepWithinTheBounds() {
        // Every curve of four seconds on a 0.1 grid that never rises, under every keep on a 0.05 grid.
        let levels = (0...10).map { Double($0) / 10 }
        var curves: [[Double]] = []
        for a in levels {
            for b in levels where b <= a {
                for c in levels where c <= b {
                    for d in levels where d <= c {
                        curves.append([1, a, b, c, d, 0])
                    }
                }
            }
        }
        for keep in stride(from: 0.05, through: 1, by: 0.05) {
            var prefetch = RetentionPrefetch()
            prefetch.keep = keep
            for curve in curves {
                let seconds = curve.prefix(3).prefix { $0 >= keep }.count
                #expect(
                    prefetch.neighbourCapMilliseconds(Self.video("v", retention: curve)) == max(1, seconds) * 1000,
                    "keep \(keep), curve \(curve)")
            }
        }
        var wide = RetentionPrefetch()
        wide.neighbourMilliseconds = 2000...5000
        #expect(wide.neighbourCapMilliseconds(Self.video("flat", retention: [Double](repeating: 1, count: 9))) == 5000)
        #expect(wide.neighbourCapMilliseconds(Self.video("gone", retention: [1, 0.1, 0])) == 2000)
        #expect(wide.neighbourCapMilliseconds(Self.video("nobody", retention: [0, 0, 0])) == 2000)
    }

    @Test func eachNeighbourIsPreloadedAsFarAsItsViewersWatch() throws {
        let steep = Self.video("steep", retention: [1, 0.5, 0.3, 0.2, 0.1, 0.1, 0.1, 0.1, 0])
        let flat = Self.video("flat", retention: [Double](repeating: 1, count: 9))
        let catalog = [flat, steep, flat, flat]
        let aware = try Self.run(catalog, [.watch(milliseconds: 5000)], mbps: 20, policy: .aware)
        #expect(aware.prefetched(1).count == 1)
        #expect(aware.prefetched(2).count == 3)
        let window = try Self.run(catalog, [.watch(milliseconds: 5000)], mbps: 20, policy: .window)
        #expect(window.prefetched(1).count == 3)
    }

    @Test func aNeighboursFirstChunkTakesTheCautiousRung() throws {
        let catalog = (0..<4).map { Self.video("v\($0)", retention: [Double](repeating: 1, count: 9)) }
        // At 4 Mbps 0.8 × the measured throughput reaches the top rung; half of it reaches only the middle one.
        let aware = try Self.run(catalog, [.watch(milliseconds: 8000)], mbps: 4, policy: .aware)
        let window = try Self.run(catalog, [.watch(milliseconds: 8000)], mbps: 4, policy: .window)
        let first = try #require(aware.prefetched(1).first)
        #expect(first.chunk == 0 && first.rung == 1)
        #expect(window.prefetched(1).first?.rung == 2)
        // Later chunks of the same neighbour go back to the full rung.
        #expect(aware.prefetched(1).dropFirst().contains { $0.rung == 2 })
    }

    @Test func onASlowLinkThePlayingItemBuildsMoreBufferBeforeAnyNeighbour() throws {
        // At 1.3 Mbps a lowest-rung chunk takes about 0.82 s: 4 × that is more than the window's 3 s.
        let catalog = (0..<4).map { Self.video("v\($0)", retention: [Double](repeating: 1, count: 41), chunks: 40) }
        func chunksBeforeTheFirstNeighbour(_ policy: PolicyName) throws -> Int {
            let report = try Self.run(catalog, [.watch(milliseconds: 30_000)], mbps: 1.3, policy: policy)
            let first = try #require(report.prefetched(1).first).time
            return report.prefetched(0).filter { $0.time < first }.count
        }
        let aware = try chunksBeforeTheFirstNeighbour(.aware)
        let window = try chunksBeforeTheFirstNeighbour(.window)
        #expect(aware > window, "aware \(aware), window \(window)")
    }

    @Test func anIdleConnectionWakesWhenPlaybackDrainsTheBuffer() throws {
        // One 30 s video on a fast link, watched to the end in one step: the client must refill as it plays.
        let long = Self.video("long", retention: [Double](repeating: 1, count: 31), chunks: 30)
        for policy in [PolicyName.window, .aware] {
            var configuration = try ClientRun.configuration(policy: policy, base: ClientConfiguration())
            configuration.feedLength = 1
            let report = FeedClientSimulator(catalog: [long], network: Self.flat(20), configuration: configuration)
                .run([.watch(milliseconds: 29_000)])
            #expect(report.stallCount == 0 && report.stallMilliseconds == 0, "\(policy)")
            #expect(report.prefetched(0).count == 30, "\(policy)")
        }
    }
}
