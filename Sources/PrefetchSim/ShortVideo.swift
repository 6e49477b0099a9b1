/// One video of the catalog: chunk sizes per rung and the audience's retention curve. The challenge's videos have
/// 1 s chunks, no init segment and its three nominal rates; a feed video's chunks are its HLS segments, with their
/// own durations, each rung's init segment and the rung's measured bit rate (`FeedVideoModel` builds those).
public struct ShortVideo: Sendable, Equatable {
    public let name: String
    /// `chunkBytes[rung][k]`: bytes of chunk k at that rung.
    public let chunkBytes: [[Int]]
    /// `retention[t]`: fraction of viewers still watching at second t (1 at t = 0).
    public let retention: [Double]
    /// Milliseconds each chunk plays, the same at every rung (IDRs line up across rungs).
    public let chunkMilliseconds: [Int]
    /// `initBytes[rung]`: what a player fetches once before its first chunk at that rung (0: nothing).
    public let initBytes: [Int]
    /// `rungKbps[rung]`: the rate the rung choice compares measured throughput with.
    public let rungKbps: [Double]
    /// `chunkEnds[k]`: where chunk k stops playing, in ms from the start.
    private let chunkEnds: [Int]

    /// A challenge video: 1 s chunks, no init segments, the challenge's rates.
    public init(name: String, chunkBytes: [[Int]], retention: [Double]) {
        let count = chunkBytes.first?.count ?? 0
        self.init(
            name: name, chunkBytes: chunkBytes, chunkMilliseconds: [Int](repeating: 1000, count: count),
            initBytes: [Int](repeating: 0, count: chunkBytes.count),
            rungKbps: Array(MMGCRates.kbps.prefix(chunkBytes.count)),
            retention: retention)
    }

    public init(
        name: String, chunkBytes: [[Int]], chunkMilliseconds: [Int], initBytes: [Int], rungKbps: [Double],
        retention: [Double]
    ) {
        precondition(
            !chunkBytes.isEmpty && chunkBytes.allSatisfy { $0.count == chunkMilliseconds.count },
            "every rung lists every chunk")
        precondition(
            initBytes.count == chunkBytes.count && rungKbps.count == chunkBytes.count,
            "one init size and one rate per rung")
        self.name = name
        self.chunkBytes = chunkBytes
        self.retention = retention
        self.chunkMilliseconds = chunkMilliseconds
        self.initBytes = initBytes
        self.rungKbps = rungKbps
        var end = 0
        chunkEnds = chunkMilliseconds.map {
            end += $0
            return end
        }
    }

    public var chunkCount: Int { chunkMilliseconds.count }
    public var rungCount: Int { chunkBytes.count }
    public var durationMilliseconds: Int { chunkEnds.last ?? 0 }

    /// Where the first `count` chunks stop playing, in ms.
    public func end(ofChunks count: Int) -> Int {
        count <= 0 ? 0 : chunkEnds[min(count, chunkEnds.count) - 1]
    }

    /// How many chunks start before `milliseconds`: those playback has reached.
    public func chunks(startingBefore milliseconds: Int) -> Int {
        guard milliseconds > 0 else { return 0 }
        var low = 0, high = chunkCount  // chunk k starts at end(ofChunks: k)
        while low < high {
            let middle = (low + high) / 2
            if end(ofChunks: middle) < milliseconds { low = middle + 1 } else { high = middle }
        }
        return low
    }

    /// The highest rung whose rate is at most `share` × the measured throughput (0.8 by default); the lowest when
    /// none is, or before any measurement. The same rule as the challenge's, on this video's own rates.
    public func rung(forMeasuredKbps kbps: Double?, share: Double = 0.8) -> Int {
        guard let kbps else { return 0 }
        return rungKbps.lastIndex { $0 <= share * kbps } ?? 0
    }

    /// r(t) for a whole second t, clamped to the curve.
    public func retention(atSecond t: Int) -> Double {
        guard !retention.isEmpty else { return 1 }
        return retention[max(0, min(t, retention.count - 1))]
    }
}
