/// Replays measured sessions in the client model and compares its predictions with what was measured: each view's
/// startup (median absolute error), whether it stalled (agreement) and how often (count agreement). The script is the session itself: each video
/// for as long as the viewer stayed on it, then a swipe; the network is the session's own fetches, and the round
/// trip the one they showed.
public enum SessionReplay {
    public struct ViewOutcome: Sendable, Equatable, Codable {
        public var measuredStartupMilliseconds: Int
        /// nil: the model did not start the video within the viewer's stay.
        public var predictedStartupMilliseconds: Int?
        public var measuredStalls: Int
        public var predictedStalls: Int

        public init(
            measuredStartupMilliseconds: Int, predictedStartupMilliseconds: Int?, measuredStalls: Int,
            predictedStalls: Int
        ) {
            self.measuredStartupMilliseconds = measuredStartupMilliseconds
            self.predictedStartupMilliseconds = predictedStartupMilliseconds
            self.measuredStalls = measuredStalls
            self.predictedStalls = predictedStalls
        }

        enum CodingKeys: String, CodingKey {
            case measuredStartupMilliseconds = "measured_startup_ms"
            case predictedStartupMilliseconds = "predicted_startup_ms"
            case measuredStalls = "measured_stalls"
            case predictedStalls = "predicted_stalls"
        }
    }

    public struct SessionOutcome: Sendable, Equatable, Codable {
        public var name: String
        public var views: [ViewOutcome]

        public init(name: String, views: [ViewOutcome]) {
            self.name = name
            self.views = views
        }
    }

    public struct Report: Sendable, Equatable, Codable {
        public var sessions: Int
        public var views: Int
        /// Views the model started within the viewer's stay: the startup error is over these.
        public var viewsStarted: Int
        public var startupMedianAbsoluteErrorMilliseconds: Int
        public var startupMeasuredMedianMilliseconds: Int
        public var startupPredictedMedianMilliseconds: Int
        /// The share of views where the model and the page agree on whether it stalled.
        public var stallAgreement: Double
        /// The share of views where the model predicts exactly as many stalls as the page measured.
        public var stallCountAgreement: Double
        public var stallsMeasured: Int
        public var stallsPredicted: Int
        public var perSession: [SessionOutcome]

        enum CodingKeys: String, CodingKey {
            case sessions, views
            case viewsStarted = "views_started"
            case startupMedianAbsoluteErrorMilliseconds = "startup_median_abs_error_ms"
            case startupMeasuredMedianMilliseconds = "startup_measured_median_ms"
            case startupPredictedMedianMilliseconds = "startup_predicted_median_ms"
            case stallAgreement = "stall_agreement"
            case stallCountAgreement = "stall_count_agreement"
            case stallsMeasured = "stalls_measured"
            case stallsPredicted = "stalls_predicted"
            case perSession = "per_session"
        }
    }

    /// One session in the model with `configuration` (its `feedLength` becomes the session's length).
    public static func replay(
        _ session: MeasuredSession, catalog: [ShortVideo], configuration: ClientConfiguration
    ) -> SessionOutcome {
        guard !session.views.isEmpty else { return SessionOutcome(name: session.name, views: []) }
        var configuration = configuration
        configuration.feedLength = session.views.count
        if let roundTrip = session.roundTripMilliseconds { configuration.requestRTTMilliseconds = roundTrip }
        let videos = session.views.map { catalog[$0.video] }
        var script: [ScrollStep] = []
        for (index, view) in session.views.enumerated() {
            script.append(.watch(milliseconds: max(1, view.dwellMilliseconds)))
            if index + 1 < session.views.count { script.append(.swipe) }
        }
        let report = FeedClientSimulator(catalog: videos, network: session.network, configuration: configuration)
            .run(script)
        var started: [Int: Int] = [:]
        var stalls: [Int: Int] = [:]
        for event in report.events {
            switch event.kind {
            case let .playbackStarted(item, startup): started[item] = started[item] ?? startup
            case let .stallStarted(item): stalls[item, default: 0] += 1
            default: break
            }
        }
        return SessionOutcome(
            name: session.name,
            views: session.views.enumerated().map { index, view in
                ViewOutcome(
                    measuredStartupMilliseconds: view.startupMilliseconds, predictedStartupMilliseconds: started[index],
                    measuredStalls: view.stalls, predictedStalls: stalls[index] ?? 0)
            })
    }

    public static func report(_ outcomes: [SessionOutcome]) -> Report {
        let views = outcomes.flatMap(\.views)
        let started = views.filter { $0.predictedStartupMilliseconds != nil }
        let errors = started.map { abs($0.predictedStartupMilliseconds! - $0.measuredStartupMilliseconds) }
        let agreeing = views.filter { ($0.measuredStalls > 0) == ($0.predictedStalls > 0) }.count
        let counted = views.filter { $0.measuredStalls == $0.predictedStalls }.count
        return Report(
            sessions: outcomes.count, views: views.count, viewsStarted: started.count,
            startupMedianAbsoluteErrorMilliseconds: median(errors),
            startupMeasuredMedianMilliseconds: median(views.map(\.measuredStartupMilliseconds)),
            startupPredictedMedianMilliseconds: median(started.compactMap(\.predictedStartupMilliseconds)),
            stallAgreement: views.isEmpty ? 0 : Double(agreeing) / Double(views.count),
            stallCountAgreement: views.isEmpty ? 0 : Double(counted) / Double(views.count),
            stallsMeasured: views.map(\.measuredStalls).reduce(0, +),
            stallsPredicted: views.map(\.predictedStalls).reduce(0, +), perSession: outcomes)
    }

    /// The lower median (nearest rank), 0 for none.
    static func median(_ values: [Int]) -> Int {
        guard !values.isEmpty else { return 0 }
        return values.sorted()[(values.count - 1) / 2]
    }
}
