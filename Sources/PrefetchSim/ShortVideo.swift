/// One video of the catalog: 1 s chunk sizes per rung and the audience's retention curve.
public struct ShortVideo: Sendable, Equatable {
    public let name: String
    /// `chunkBytes[rung][k]`: bytes of the 1 s chunk k at that rung.
    public let chunkBytes: [[Int]]
    /// `retention[t]`: fraction of viewers still watching at second t (1 at t = 0).
    public let retention: [Double]

    public init(name: String, chunkBytes: [[Int]], retention: [Double]) {
        self.name = name
        self.chunkBytes = chunkBytes
        self.retention = retention
    }

    public var chunkCount: Int { chunkBytes[0].count }
    public var durationMilliseconds: Int { chunkCount * 1000 }

    /// r(t) for a whole second t, clamped to the curve.
    public func retention(atSecond t: Int) -> Double {
        guard !retention.isEmpty else { return 1 }
        return retention[max(0, min(t, retention.count - 1))]
    }
}
