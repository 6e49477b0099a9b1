/// Runs a policy over a trace set the way the challenge's harness does: traces in order, the carried
/// `last_chunk_bitrate` list shared by all of them, figures averaged.
public struct MMGCRunner: Sendable {
    public let catalog: [ShortVideo]
    public let traces: [NetworkTrace]

    /// The challenge's default user: the same 7 watch times on every trace.
    public static let sample0 = [12421, 13323, 2905, 3791, 1859, 6000, 1956]

    public init(catalog: [ShortVideo], traces: [NetworkTrace]) {
        self.catalog = catalog
        self.traces = traces
    }

    /// Session video v is catalog video v mod catalog size; 7 videos a session.
    public var sessionVideos: [ShortVideo] { (0..<7).map { catalog[$0 % catalog.count] } }

    public func run(_ policy: some MMGCPolicy, watch: [Int] = sample0) -> (average: MMGCResult, perTrace: [MMGCResult])
    {
        var carried = [Double](repeating: -1, count: 7)
        let results = traces.map { trace in
            MMGCSession(videos: sessionVideos, watch: watch, trace: trace).run(policy, lastChunkBitrate: &carried)
        }
        return (MMGCResult.averaged(results), results)
    }

    /// Runs every user over every trace in the challenge's order (`test_user_samples`: user by user, traces in
    /// order), with one carried `last_chunk_bitrate` list for the whole run as its module keeps it. The users of
    /// `unscoredFirst` run before them in the same way, and only carry that list.
    public func run(_ policy: some MMGCPolicy, users: [[Int]], unscoredFirst: [[Int]] = []) -> MMGCResult {
        var carried = [Double](repeating: -1, count: 7)
        for watch in unscoredFirst {
            for trace in traces {
                _ = MMGCSession(videos: sessionVideos, watch: watch, trace: trace).run(
                    policy, lastChunkBitrate: &carried)
            }
        }
        var results: [MMGCResult] = []
        results.reserveCapacity(users.count * traces.count)
        for watch in users {
            for trace in traces {
                results.append(
                    MMGCSession(videos: sessionVideos, watch: watch, trace: trace).run(
                        policy, lastChunkBitrate: &carried))
            }
        }
        return MMGCResult.averaged(results)
    }
}
