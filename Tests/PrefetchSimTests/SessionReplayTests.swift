import PrefetchSim
import Testing

/// The replay on sessions the client model itself produced on a steady link: laid back to back, its own fetches
/// rebuild that link, so replaying the session predicts what it measured, to within the model's rounding (each
/// fetch's time is rounded up to a millisecond, and the drift shifts later fetches by a few).
@Suite(.timeLimit(.minutes(2))) struct SessionReplayTests {
    /// Ten videos of 2 s chunks at three rungs, each with an init segment.
    static let catalog: [ShortVideo] = (0..<10).map { index in
        ShortVideo(
            name: "v\(index)",
            chunkBytes: [
                [Int](repeating: 90_000 + 1_000 * index, count: 8), [Int](repeating: 250_000, count: 8),
                [Int](repeating: 600_000, count: 8),
            ],
            chunkMilliseconds: [Int](repeating: 2000, count: 8), initBytes: [900, 1_000, 1_100],
            rungKbps: [400, 1_000, 2_400], retention: [])
    }

    static func constantTrace(mbps: Double) -> NetworkTrace {
        NetworkTrace(name: "flat", times: [0, 3600], mbps: [mbps, mbps])
    }

    /// Runs `dwell` (ms per video, videos in catalog order) in the model and turns its log into a measured session.
    static func produced(
        dwell: [Int], trace: NetworkTrace, configuration: ClientConfiguration
    ) -> (MeasuredSession, [Int: Int], [Int: Int]) {
        var configuration = configuration
        configuration.feedLength = dwell.count
        var script: [ScrollStep] = []
        for (index, milliseconds) in dwell.enumerated() {
            script.append(.watch(milliseconds: milliseconds))
            if index + 1 < dwell.count { script.append(.swipe) }
        }
        let report = FeedClientSimulator(
            catalog: Array(catalog.prefix(dwell.count)), network: trace, configuration: configuration
        ).run(script)
        var starts: [Int: Int] = [:]
        var stalls: [Int: Int] = [:]
        var begun: [String: Int] = [:]
        var samples: [ThroughputSample] = []
        for event in report.events {
            switch event.kind {
            case let .playbackStarted(item, startup): starts[item] = starts[item] ?? startup
            case let .stallStarted(item): stalls[item, default: 0] += 1
            case let .downloadStarted(item, chunk, _): begun["\(item).\(chunk)"] = event.time
            case let .downloadFinished(item, chunk, _, bytes):
                samples.append(ThroughputSample(bytes: bytes, milliseconds: event.time - begun["\(item).\(chunk)"]!))
            default: break
            }
        }
        let views = dwell.enumerated().map { index, milliseconds in
            MeasuredSession.View(
                video: index, dwellMilliseconds: milliseconds, startupMilliseconds: starts[index] ?? milliseconds,
                stalls: stalls[index] ?? 0)
        }
        let network = NetworkTrace(
            name: "rebuilt", samples: samples, roundTripMilliseconds: configuration.requestRTTMilliseconds)!
        return (
            MeasuredSession(
                name: "produced", views: views, network: network,
                roundTripMilliseconds: configuration.requestRTTMilliseconds), starts, stalls
        )
    }

    @Test(arguments: [0.6, 1.5, 4.0, 20.0])
    func aSessionTheModelProducedReplaysAsItWasMeasured(mbps: Double) throws {
        let configuration = ClientConfiguration()
        let dwell = [9_000, 1_500, 12_000, 400, 6_000, 16_000, 3_000]
        let (session, starts, stalls) = Self.produced(
            dwell: dwell, trace: Self.constantTrace(mbps: mbps), configuration: configuration)
        let outcome = SessionReplay.replay(session, catalog: Self.catalog, configuration: configuration)
        #expect(outcome.views.count == dwell.count)
        for (index, view) in outcome.views.enumerated() {
            guard let measured = starts[index] else { continue }
            let predicted = try #require(view.predictedStartupMilliseconds, "view \(index) at \(mbps) Mbit/s")
            // At most a millisecond per fetch of the session (about 60) before this start.
            #expect(abs(predicted - measured) <= 100, "view \(index) at \(mbps) Mbit/s: \(predicted) vs \(measured)")
        }
        let report = SessionReplay.report([outcome])
        #expect(report.sessions == 1 && report.views == dwell.count)
        #expect(report.startupMedianAbsoluteErrorMilliseconds <= 20, "\(report)")
        #expect(report.stallAgreement >= 6.0 / 7, "\(report) measured stalls \(stalls)")
        #expect(report.stallCountAgreement >= 6.0 / 7, "\(report) measured stalls \(stalls)")
    }

    /// Agreement on whether a view stalled counts (1, 2) as agreeing; count agreement does not.
    @Test func theReportCountsAgreementPerView() {
        let views = [(0, 0), (1, 1), (2, 1), (0, 1)].map { measured, predicted in
            SessionReplay.ViewOutcome(
                measuredStartupMilliseconds: 500, predictedStartupMilliseconds: 500 + 100 * predicted,
                measuredStalls: measured, predictedStalls: predicted)
        }
        let report = SessionReplay.report([SessionReplay.SessionOutcome(name: "s", views: views)])
        #expect(report.stallAgreement == 0.75 && report.stallCountAgreement == 0.5)
        #expect(report.stallsMeasured == 3 && report.stallsPredicted == 3)
        #expect(report.startupMedianAbsoluteErrorMilliseconds == 100)
    }

    /// A slower link than measured predicts slower starts: the error is the model's, and the report shows it.
    @Test func aSlowerLinkShowsAsErrorAndDisagreement() {
        let configuration = ClientConfiguration()
        let dwell = [8_000, 8_000, 8_000, 8_000]
        var (session, _, _) = Self.produced(
            dwell: dwell, trace: Self.constantTrace(mbps: 8), configuration: configuration)
        session.network = Self.constantTrace(mbps: 0.3)
        let report = SessionReplay.report([
            SessionReplay.replay(session, catalog: Self.catalog, configuration: configuration)
        ])
        #expect(report.startupPredictedMedianMilliseconds > report.startupMeasuredMedianMilliseconds)
        #expect(report.startupMedianAbsoluteErrorMilliseconds > 500)
        #expect(report.stallsPredicted > report.stallsMeasured)
        #expect(report.stallCountAgreement < 1)
    }

    @Test func tracesComeFromLargeFetchesWithoutTheRoundTrip() throws {
        let samples = [
            ThroughputSample(bytes: 1_000, milliseconds: 45), ThroughputSample(bytes: 400_000, milliseconds: 1_040),
            ThroughputSample(bytes: 900, milliseconds: 60), ThroughputSample(bytes: 100_000, milliseconds: 240),
        ]
        #expect(ThroughputSample.roundTripMilliseconds(of: samples) == 45)
        let trace = try #require(NetworkTrace(name: "t", samples: samples, roundTripMilliseconds: 40))
        #expect(trace.times == [0, 1.0, 1.2])
        #expect(trace.mbps.map { ($0 * 1000).rounded() / 1000 } == [3.2, 3.2, 4.0])
        #expect(NetworkTrace(name: "t", samples: [ThroughputSample(bytes: 1_000, milliseconds: 45)]) == nil)
        #expect(ThroughputSample.roundTripMilliseconds(of: [ThroughputSample(bytes: 400_000, milliseconds: 9)]) == nil)
    }
}
