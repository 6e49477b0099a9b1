import Deadlines
import Foundation
import MediaFixtures
import PrefetchSim
import TestServers
import Testing

/// The web client's `aware` prefetch (`prefetch.js`) is the simulator's `RetentionPrefetch`: the same neighbour caps
/// and starting rungs, checked in Chromium on random cases against PrefetchSim's own functions, edge cases included.
@Suite(.serialized, .timeLimit(.minutes(5))) struct PrefetchScriptBrowserTests {
    /// xorshift64*: the same cases on every run.
    struct Generator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state ^= state >> 12
            state ^= state << 25
            state ^= state >> 27
            return state &* 2_685_821_657_736_338_717
        }
        mutating func below(_ bound: Int) -> Int { Int(next() % UInt64(bound)) }
        mutating func unit() -> Double { Double(next() >> 11) / Double(1 << 53) }
    }

    static func retentionCases() -> [[Double]] {
        var random = Generator(state: 0x5eed_cafe)
        var cases: [[Double]] = [
            [], [0], [1], [0.5], [1, 1, 1, 1], [1, 0.7, 0.7, 0.7], [1, 0.7, 0.69], [1, 0.69], [1, 0, 0, 0],
            [0.8, 0.56, 0.56, 0.56], [1, 1], [0, 0, 0], [1, 0.9, 0.8, 0.75, 0.1],
        ]
        for _ in 0..<400 {
            // Non-increasing shares, as a retention curve is; some start below 1, some fall at once.
            var share = random.below(5) == 0 ? random.unit() : 1
            var curve: [Double] = []
            for _ in 0..<(1 + random.below(20)) {
                curve.append(share)
                share *= random.below(3) == 0 ? random.unit() : 1 - random.unit() * 0.2
            }
            cases.append(curve)
        }
        return cases
    }

    /// Ascending rates in whole kbit/s with a throughput in even kbit/s: every comparison is exact on both sides.
    static func levelCases() -> [(kbps: [Int], averageGiven: [Bool], bps: Int)] {
        var random = Generator(state: 0x1e7e15)
        var cases: [(kbps: [Int], averageGiven: [Bool], bps: Int)] = [
            ([400, 1200, 3000], [true, true, true], 0), ([400, 1200, 3000], [true, true, true], 800_000),
            ([400, 1200, 3000], [true, true, true], 798_000), ([400], [false], 2_000),
            ([400, 1200, 3000], [false, true, false], 6_000_000),
        ]
        for _ in 0..<400 {
            var rate = 100 + random.below(500)
            var rates: [Int] = []
            for _ in 0..<(1 + random.below(6)) {
                rates.append(rate)
                rate += 1 + random.below(3000)
            }
            let given = rates.map { _ in random.below(4) != 0 }
            let bps = random.below(10) == 0 ? 0 : 2_000 * random.below(6_000)
            cases.append((rates, given, bps))
        }
        return cases
    }

    static func sampleCases() -> [[(bytes: Int, milliseconds: Int)]] {
        var random = Generator(state: 0xfe7c4)
        var cases: [[(bytes: Int, milliseconds: Int)]] = [[], [(16_383, 100)], [(16_384, 100)], [(500_000, 0)]]
        for _ in 0..<200 {
            cases.append(
                (0..<random.below(12)).map { _ in
                    (
                        random.below(4) == 0 ? random.below(20_000) : 16_384 + random.below(2_000_000),
                        random.below(3_000)
                    )
                })
        }
        return cases
    }

    /// The oracle for `addSample` and `harmonicMean`: fetches of at least 16 KB that took time, the last 5, in bit/s.
    static func harmonicMean(_ fetches: [(bytes: Int, milliseconds: Int)]) -> Double {
        let rates = fetches.filter { $0.bytes >= 16_384 && $0.milliseconds > 0 }.suffix(5)
            .map { Double($0.bytes) * 8 * 1000 / Double($0.milliseconds) }
        return rates.isEmpty ? 0 : Double(rates.count) / rates.reduce(0) { $0 + 1 / $1 }
    }

    @Test func thePagesPrefetchFunctionsAreTheSimulators() async throws {
        let directory = try TemporaryDirectory()
        let retention = Self.retentionCases()
        let levels = Self.levelCases()
        let samples = Self.sampleCases()
        let cases: [String: Any] = [
            "caps": retention,
            "levels": levels.map { level in
                [
                    "bps": level.bps,
                    "levels": zip(level.kbps, level.averageGiven).map { kbps, given in
                        // hls.js's level: `bitrate` is BANDWIDTH (above the average), `averageBitrate` the average.
                        given
                            ? ["bitrate": kbps * 1000 + 999_000, "averageBitrate": kbps * 1000]
                            : ["bitrate": kbps * 1000]
                    },
                ] as [String: Any]
            },
            "samples": samples.map { fetches in ["fetches": fetches.map { [$0.bytes, $0.milliseconds] }] },
        ]
        let file = directory.file("cases.json")
        try JSONSerialization.data(withJSONObject: cases).write(to: URL(fileURLWithPath: file))
        let server = try ChildProcess([
            ReelProcess.executable, "serve", "--database", directory.file("catalog.sqlite"), "--library",
            directory.file("library"), "--port", "0",
        ])
        try await withProcesses([server]) {
            #expect(await listens(server), "reel serve never said it was listening: \(server.stderr)")
            let run = try await ChildProcess.run(
                [
                    "/usr/bin/timeout", "120", "python3", WebClientBrowserTests.driver, "--url",
                    WebClientBrowserTests.listeningURL(server), "--out", directory.file("out"), "--prefetch-cases",
                    file,
                ], within: .seconds(150))
            let report = try #require(
                try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any],
                "no report: \(run.stdout) \(run.stderr)")
            #expect(run.status == 0 && report["harnessError"] == nil, "\(report["harnessError"] ?? run.stderr)")
            let results = try #require(report["results"] as? [String: [Double]], "\(report)")

            let caps = try #require(results["caps"])
            #expect(caps.count == retention.count)
            let model = RetentionPrefetch()
            for (curve, cap) in zip(retention, caps) {
                let video = ShortVideo(name: "v", chunkBytes: [[1]], retention: curve)
                #expect(Int(cap) * 1000 == model.neighbourCapMilliseconds(video), "retention \(curve)")
            }

            let chosen = try #require(results["levels"])
            #expect(chosen.count == levels.count)
            for (level, index) in zip(levels, chosen) {
                let video = ShortVideo(
                    name: "v", chunkBytes: level.kbps.map { _ in [1] }, chunkMilliseconds: [1000],
                    initBytes: level.kbps.map { _ in 0 }, rungKbps: level.kbps.map(Double.init), retention: [])
                let expected =
                    level.bps == 0
                    ? -1 : video.rung(forMeasuredKbps: Double(level.bps / 1000), share: model.cautiousShare)
                #expect(Int(index) == expected, "\(level)")
            }

            let means = try #require(results["means"])
            #expect(means.count == samples.count)
            for (fetches, mean) in zip(samples, means) {
                let expected = Self.harmonicMean(fetches)
                #expect(abs(mean - expected) <= expected * 1e-12, "\(fetches)")
            }
        }
    }
}
