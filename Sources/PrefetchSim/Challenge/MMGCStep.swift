/// What the session did in the step before a decision, as the challenge hands it to a policy (`delay`,
/// `video_size`): baselines that measure throughput read it themselves.
public enum MMGCStep: Sendable, Equatable {
    /// A chunk of `bytes` took `milliseconds`, the rounded delay with the RTT.
    case download(bytes: Int, milliseconds: Int)
    case sleep(milliseconds: Int)
}
