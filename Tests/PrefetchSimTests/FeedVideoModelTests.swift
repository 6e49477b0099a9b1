import MediaModel
import PrefetchSim
import TestTraits
import Testing

/// The conversion of a published video's renditions and prefetch hints into the simulator's video.
@Suite(.offThePool, .timeLimit(.minutes(5))) struct FeedVideoModelTests {
    /// A 360p/720p rendition pair of a 16 s video with 4 s segments, as the worker measures them.
    static let low = FeedVideoModel.Rendition(
        id: "360p", averageBandwidth: 600_000, segments: 4,
        prefetch: PrefetchHint(
            initBytes: 900, segmentDurationMilliseconds: 4000,
            firstSegments: [.init(durationMilliseconds: 4000, bytes: 310_000)]))
    static let middle = FeedVideoModel.Rendition(
        id: "720p", averageBandwidth: 1_400_000, segments: 4,
        prefetch: PrefetchHint(
            initBytes: 1_000, segmentDurationMilliseconds: 4000,
            firstSegments: [.init(durationMilliseconds: 4000, bytes: 720_000)]))
    static let top = FeedVideoModel.Rendition(id: "1080p", averageBandwidth: 2_900_000, segments: 4, prefetch: nil)

    static func model(_ renditions: [FeedVideoModel.Rendition], duration: Int = 16_000) throws -> FeedVideoModel {
        try FeedVideoModel(name: "v", durationMilliseconds: duration, renditions: renditions)
    }

    @Test func windowCostIsTheInitSegmentPlusTheFirstSegmentsCoveringThreeSeconds() throws {
        let twoSecond = FeedVideoModel.Rendition(
            id: "360p", averageBandwidth: 600_000, segments: 8,
            prefetch: PrefetchHint(
                initBytes: 850, segmentDurationMilliseconds: 2000,
                firstSegments: [
                    .init(durationMilliseconds: 2000, bytes: 150_000),
                    .init(durationMilliseconds: 2000, bytes: 140_000),
                ]))
        let model = try Self.model([twoSecond])
        #expect(model.windowBytes(rung: 0) == 850 + 150_000 + 140_000)
        #expect(model.initBytes(rung: 0) == 850)
        #expect(model.segmentBytes(rung: 0, segment: 0) == 150_000)
        #expect(model.segmentBytes(rung: 0, segment: 1) == 140_000)
        #expect(model.sizeSource(rung: 0) == .measured)
        let video = model.shortVideo()
        #expect(video.initBytes == [850])
        #expect(Array(video.chunkBytes[0].prefix(2)) == [150_000, 140_000])
        #expect(video.chunkMilliseconds == [Int](repeating: 2000, count: 8))
    }

    @Test func renditionsAreOrderedCheapestFirstWhateverTheCatalogOrder() throws {
        let model = try Self.model([Self.top, Self.low, Self.middle])
        #expect(model.renditions.map(\.id) == ["360p", "720p", "1080p"])
        #expect(model.shortVideo().rungKbps == [600, 1400, 2900])
    }

    /// The highest rung at most 0.8 × the measured rate; the lowest before any measurement or below every rung.
    @Test(
        arguments: [
            (nil, 0), (100, 0), (749, 0), (750, 0), (1749, 0), (1750, 1), (3624, 1), (3625, 2), (50_000, 2),
        ] as [(Double?, Int)])
    func rungChoiceFollowsTheMeasuredThroughput(kbps: Double?, rung: Int) throws {
        let video = try Self.model([Self.low, Self.middle, Self.top]).shortVideo()
        #expect(video.rung(forMeasuredKbps: kbps) == rung)
    }

    @Test func aRenditionWithoutAHintIsEstimatedFromItsBitRateAndSaysSo() throws {
        let model = try Self.model([Self.low, Self.top])
        #expect(model.estimatedRenditions == ["1080p"])
        #expect(model.sizeSource(rung: 1) == .estimated)
        #expect(model.initBytes(rung: 1) == 0)
        // 2.9 Mbit/s for 4 s, in bytes; the window is the first 4 s segment, no init size known.
        #expect(model.segmentBytes(rung: 1, segment: 0) == 1_450_000)
        #expect(model.windowBytes(rung: 1) == 1_450_000)
        // The measured rendition keeps its real first segment; later segments are estimated at its rate.
        #expect(model.segmentBytes(rung: 0, segment: 0) == 310_000)
        #expect(model.segmentBytes(rung: 0, segment: 1) == 300_000)
    }

    @Test func withoutAnyHintTheSegmentsSplitTheDurationEvenly() throws {
        let bare = FeedVideoModel.Rendition(id: "360p", averageBandwidth: 800_000, segments: 3, prefetch: nil)
        let model = try Self.model([bare], duration: 10_000)
        #expect(model.segmentMilliseconds == [3333, 3333, 3334])
        #expect(model.estimatedRenditions == ["360p"])
        #expect(model.windowBytes(rung: 0) == 333_300)
    }

    /// The hint's segments as measured, then target-length segments, the last one taking what is left.
    @Test(arguments: [
        (16_000, 4, 4000, [4000], [4000, 4000, 4000, 4000]),
        (17_000, 5, 4000, [4000], [4000, 4000, 4000, 4000, 1000]),
        (16_000, 8, 2000, [2000, 2000], [Int](repeating: 2000, count: 8)),
        (3_000, 1, 4000, [3000], [3000]),
        (9_000, 3, 4000, [4000], [4000, 4000, 1000]),
    ])
    func segmentDurationsFollowTheHintThenTheTarget(
        duration: Int, segments: Int, target: Int, first: [Int], expected: [Int]
    ) throws {
        let hint = PrefetchHint(
            initBytes: 800, segmentDurationMilliseconds: target,
            firstSegments: first.map { .init(durationMilliseconds: $0, bytes: 1000) })
        let model = try Self.model(
            [.init(id: "360p", averageBandwidth: 500_000, segments: segments, prefetch: hint)], duration: duration)
        #expect(model.segmentMilliseconds == expected)
        #expect(model.shortVideo().durationMilliseconds == duration)
    }

    @Test func incompleteRowsAreRefusedWithTheirReason() {
        #expect(throws: FeedVideoModelError(video: "v", reason: .noRenditions)) { try Self.model([]) }
        #expect(throws: FeedVideoModelError(video: "v", reason: .noDuration)) {
            try Self.model([Self.low], duration: 0)
        }
        let empty = FeedVideoModel.Rendition(id: "360p", averageBandwidth: 500_000, segments: 0, prefetch: nil)
        #expect(throws: FeedVideoModelError(video: "v", reason: .noSegments)) { try Self.model([empty]) }
        #expect(
            FeedVideoModelError(video: "abc", reason: .noSegments).description
                == "video abc: its renditions list no segments")
    }

    /// On a steady 1 Mbit/s link the client stays on 360p: the first fetch of each item is the init segment with
    /// the first segment, a neighbour's prefetch costs exactly the hint's window, and the first frame waits for
    /// one RTT plus those bytes at the link rate.
    @Test func theClientModelPaysTheRealInitAndFirstSegmentBytes() throws {
        let model = try Self.model([Self.low, Self.middle])
        let trace = NetworkTrace(
            name: "1 Mbps", times: (0...600).map(Double.init), mbps: [Double](repeating: 1, count: 601))
        let report = FeedClientSimulator(catalog: [model.shortVideo()], network: trace).run([
            .watch(milliseconds: 12_000)
        ])
        let fetched = report.events.compactMap { event -> (item: Int, chunk: Int, bytes: Int)? in
            if case let .downloadFinished(item, chunk, rung, bytes) = event.kind, rung == 0 {
                return (item, chunk, bytes)
            }
            return nil
        }
        #expect(fetched.first { $0.item == 0 && $0.chunk == 0 }?.bytes == 900 + 310_000)
        #expect(fetched.first { $0.item == 0 && $0.chunk == 1 }?.bytes == 300_000)
        #expect(fetched.filter { $0.item == 1 }.map(\.bytes).reduce(0, +) == model.windowBytes(rung: 0))
        let startup =
            ClientConfiguration().requestRTTMilliseconds + Int((Double(310_900 * 8) / 1_000_000 * 1000).rounded(.up))
        #expect(report.startupDelays == [startup])
        #expect(report.bytesDownloaded == report.bytesPlayed + report.bytesWasted + report.bytesStillBuffered)
    }
}
