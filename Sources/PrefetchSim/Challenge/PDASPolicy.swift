import Foundation

/// PDAS (Zhou et al., "PDAS: Probability-Driven Adaptive Streaming for Short Video", ACM MM 2022), the MM'22
/// challenge's winner, reimplemented from the paper. Every video in the queue gets a maximum buffer from the
/// chance its next chunk is watched, `b_max = max(p · T_max, b_th)` with `b_th = 3.5 · e^(−0.3·C − 0.15·(i − i_c))`
/// (C the predicted throughput in Mbps, i − i_c the distance from the playing video); the first video in queue
/// order below its `b_max` is fetched, and the policy sleeps when none is. The rung comes from a RobustMPC over
/// that video's next chunks that values each plan at its expected QoE minus its cost, each chunk's quality and each
/// stall weighted by the chance the viewer is still there. The choices the paper leaves open are in
/// docs/simulator.md ("PDAS") and are the `Parameters` here.
public struct PDASPolicy: MMGCPolicy {
    public struct Parameters: Sendable, Equatable {
        /// `T_max`, seconds: the buffer a chunk that is surely watched may have ahead of it. Chosen on the HSDPA
        /// traces, never on the challenge's four sets (docs/simulator.md).
        public var maximumBufferSeconds = 3.0
        /// `T_max` shrinks by this factor per place a video is from the playing one. Not PDAS's: 1 there.
        public var neighbourDecay = 1.0
        /// `T_max` grows by this many seconds per Mbps the throughput is below 2 Mbps, and shrinks by as many above
        /// it, within `maximumBufferRange`: a slow link wants more in hand. Not PDAS's: 0 there.
        public var maximumBufferSlope = 0.0
        public var maximumBufferRange = 1.0...6.0
        /// `b_th`'s scale and exponents, as the paper gives them.
        public var thresholdScale = 3.5
        public var throughputExponent = 0.3
        public var distanceExponent = 0.15
        /// Chunks the MPC plans for the playing video (fewer when fewer are left).
        public var playingHorizon = 5
        /// Bytes cost this much per Mbit in the plan's value: the challenge's θ.
        public var costPerMegabit = 0.5
        public var rebufferPenalty = MMGCSession.rebufferPenalty
        /// Shortest and longest sleep, ms, when every buffer is full.
        public var sleepMilliseconds = 100...500

        public init() {}
    }

    public let name = PolicyName.pdas.rawValue
    public let parameters: Parameters
    private var throughput = RobustThroughput()

    public init(parameters: Parameters = Parameters()) {
        self.parameters = parameters
    }

    public mutating func decide(_ view: MMGCView) -> MMGCDecision {
        guard let kbps = throughput.observe(view) else { return .download(video: view.playing, rung: 0) }
        let plan = PDASPlan(view: view, kbps: kbps, parameters: parameters)
        return plan.decision { plan.rung(for: $0) }
    }
}
