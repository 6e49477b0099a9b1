/// Reel's bandwidth- and retention-aware policy. It keeps A2's rules (a 2 s safety margin on the playing video,
/// next videos only while retention stays ≥ 0.7 of the current position's) and reads the network for the rung:
/// once the playing video has 6 s buffered, a stall is unlikely, so it trusts the full harmonic-mean throughput
/// instead of 80 % of it and fetches a better rung.
public struct AwarePolicy: MMGCPolicy {
    public let name = PolicyName.aware.rawValue
    private let gate = FixedWindowPolicy.a2

    public init() {}

    public func decide(_ view: MMGCView) -> MMGCDecision {
        guard case let .download(video, rung) = gate.decide(view) else { return gate.decide(view) }
        guard view.bufferMilliseconds(view.playing) >= 6000, let harmonic = view.throughputKbps.harmonicMean else {
            return .download(video: video, rung: rung)
        }
        let confident = MMGCRates.kbps.lastIndex { $0 <= harmonic } ?? 0
        return .download(video: video, rung: max(rung, confident))
    }
}
