import ArgumentParser
import Catalog
import Foundation
import PrefetchSim
import ViewerAnalytics

extension Reel.Simulate {
    /// Every stored viewer event of a Reel catalog (opened read-only), rebuilt into sessions.
    static func viewerSessions(at path: String) async throws -> [ViewerSession] {
        let events = try await withCatalog(at: path) { store in
            var events: [ViewerEvent] = []
            var after: Int64 = 0
            while true {
                let page = try await store.viewerEvents(after: after, limit: 10_000)
                guard let last = page.last else { break }
                events += page.map(\.event)
                after = last.id
            }
            return events
        }
        return ViewerSessions.build(events)
    }

    /// Each video's measured retention curve from a catalog's figures (`--retention-from`).
    static func measuredRetention(at path: String) async throws -> [String: [Double]] {
        var curves: [String: [Double]] = [:]
        for stats in try await withCatalog(at: path, { try await $0.allVideoStats() }) where !stats.retention.isEmpty {
            curves[stats.video] = stats.retention
        }
        return curves
    }

    /// One trace per session with fetches large enough to measure the link (`--network-from`).
    static func measuredTraces(at path: String) async throws -> [NetworkTrace] {
        let traces = try await viewerSessions(at: path).compactMap { session in
            let samples = Self.samples(session)
            return NetworkTrace(
                name: "session-\(session.id.prefix(12))", samples: samples,
                roundTripMilliseconds: ThroughputSample.roundTripMilliseconds(of: samples) ?? 0)
        }
        guard !traces.isEmpty else {
            throw ValidationError(
                "\(path): no session has a segment fetch of at least \(ThroughputSample.smallestLinkSampleBytes) bytes to make a trace from"
            )
        }
        return traces
    }

    static func samples(_ session: ViewerSession) -> [ThroughputSample] {
        session.samples.map { ThroughputSample(bytes: $0.bytes, milliseconds: $0.milliseconds) }
    }

    /// `--replay`: each measured session with a view and a usable trace, in the client model with the web client's
    /// own settings (its pool, its window), against what its page measured.
    func replay(catalogPath: String) async throws {
        let models = try await Self.feedVideos(at: catalogPath)
        let index = Dictionary(uniqueKeysWithValues: models.enumerated().map { ($1.name, $0) })
        let catalog = models.map { $0.shortVideo() }
        var measured: [MeasuredSession] = []
        var skipped = (noTrace: 0, unknownVideo: 0)
        for session in try await Self.viewerSessions(at: catalogPath) where !session.views.isEmpty {
            let samples = Self.samples(session)
            // The model's own round trip when the session shows none (it fetched nothing small).
            let roundTrip = ThroughputSample.roundTripMilliseconds(of: samples)
            guard
                let trace = NetworkTrace(
                    name: session.id, samples: samples,
                    roundTripMilliseconds: roundTrip ?? ClientConfiguration().requestRTTMilliseconds)
            else {
                skipped.noTrace += 1
                continue
            }
            let views = session.views.compactMap { view in
                index[view.video].map {
                    MeasuredSession.View(
                        video: $0, dwellMilliseconds: view.dwellMilliseconds,
                        startupMilliseconds: view.startupMilliseconds, stalls: view.stalls)
                }
            }
            guard views.count == session.views.count else {
                skipped.unknownVideo += 1
                continue
            }
            measured.append(
                MeasuredSession(name: session.id, views: views, network: trace, roundTripMilliseconds: roundTrip))
        }
        guard !measured.isEmpty else {
            throw ValidationError(
                "\(catalogPath): no session to replay (\(skipped.noTrace) without a segment fetch of at least \(ThroughputSample.smallestLinkSampleBytes) bytes, \(skipped.unknownVideo) with a video no longer published)"
            )
        }
        var configuration = try ClientRun.configuration(policy: policy, base: ClientConfiguration())
        configuration.players = players
        let outcomes = measured.map { SessionReplay.replay($0, catalog: catalog, configuration: configuration) }
        let report = SessionReplay.report(outcomes)
        if json {
            JSONOutput.print(report)
        } else {
            print(
                "replayed \(report.sessions) sessions, \(report.views) views (\(report.viewsStarted) started in the model) with \(policy), \(players) players: "
                    + "startup median absolute error \(report.startupMedianAbsoluteErrorMilliseconds) ms "
                    + "(measured median \(report.startupMeasuredMedianMilliseconds) ms, predicted \(report.startupPredictedMedianMilliseconds) ms); "
                    + "stalls measured \(report.stallsMeasured), predicted \(report.stallsPredicted), "
                    + String(
                        format: "stalled or not agreed on %.0f%% of views, the count on %.0f%%",
                        100 * report.stallAgreement, 100 * report.stallCountAgreement))
        }
        if skipped.noTrace + skipped.unknownVideo > 0 {
            printError(
                "simulate: left out \(skipped.noTrace) sessions without a usable segment fetch and \(skipped.unknownVideo) with a video no longer published"
            )
        }
    }
}
