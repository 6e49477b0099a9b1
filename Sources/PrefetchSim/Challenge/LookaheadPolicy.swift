import Foundation

/// Reel's challenge-mode policy (`lookahead`). It keeps PDAS's retention-driven buffers (which video, and when to
/// sleep) and changes how a rung is chosen:
/// - the plan's value is its mean over throughput scenarios, each of the last three samples discounted, rather than
///   its value at one RobustMPC prediction, which the largest recent error drags down;
/// - a next video's first chunk pays what the score charges for it: the switch from the video before, and the
///   challenge's penalty for a next video whose first chunk is there before the playing video's last watched one,
///   weighted by the chance that chunk is still to come. So far neighbours start low when that chance is high.
/// Its parameters were chosen on the HSDPA and synthetic traces, never on the four sets it is scored on
/// (`reel-bench prefetch-tune`, docs/simulator.md).
public struct LookaheadPolicy: MMGCPolicy {
    public struct Parameters: Sendable, Equatable {
        /// PDAS's buffers, `b_max = max(p · T_max, b_th)`, with T_max 2.5 s at 2 Mbps and 0.5 s more per Mbps
        /// slower (less per Mbps faster), and b_th's scale 1.5 s instead of 3.5 s: retention decides more of the
        /// buffer, and the throughput the rest. The playing video's plan looks 6 chunks ahead, not 5.
        public var buffers = {
            var buffers = PDASPolicy.Parameters()
            buffers.maximumBufferSeconds = 2.5
            buffers.maximumBufferSlope = 0.5
            buffers.thresholdScale = 1.5
            buffers.playingHorizon = 6
            return buffers
        }()
        /// Each recent throughput sample times this is one scenario the plan is valued in.
        public var scenarioDiscount = 0.95
        /// How many of the most recent samples are scenarios (the view holds up to 5).
        public var scenarioCount = 3
        /// Whether a next video's first chunk pays the score's boundary terms.
        public var valuesBoundary = true
        /// Whether `b_th`'s C is the scenarios' harmonic mean rather than RobustMPC's prediction.
        public var thresholdFromScenarios = true

        public init() {}
    }

    public let name = PolicyName.lookahead.rawValue
    public let parameters: Parameters
    private var throughput = RobustThroughput()

    public init(parameters: Parameters = Parameters()) {
        self.parameters = parameters
    }

    public mutating func decide(_ view: MMGCView) -> MMGCDecision {
        guard let kbps = throughput.observe(view) else { return .download(video: view.playing, rung: 0) }
        let scenarios = view.throughputKbps.suffix(parameters.scenarioCount).map { $0 * parameters.scenarioDiscount }
        let c = parameters.thresholdFromScenarios ? scenarios.harmonicMean ?? kbps : kbps
        let buffers = PDASPlan(view: view, kbps: c, parameters: parameters.buffers)
        let plan = LookaheadPlan(buffers: buffers, scenarios: scenarios, valuesBoundary: parameters.valuesBoundary)
        return buffers.decision { plan.rung(for: $0) }
    }
}
