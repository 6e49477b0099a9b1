/// How the `aware` client prefetches. A neighbour is preloaded only as far as its viewers are likely to watch. Its
/// first chunk comes at a rung the measured bandwidth fetches quickly, and the playing item takes that cautious rung
/// while its buffer is low. Together these beat the fixed 3 s window on startup and stalls with fewer bytes.
public struct RetentionPrefetch: Sendable, Equatable {
    /// A neighbour's chunk at second k is preloaded while r(k) / r(0) is at least this.
    public var keep = 0.7
    /// Bounds on a neighbour's preload, whatever its curve says.
    public var neighbourMilliseconds = 1000...3000
    /// Share of the harmonic-mean throughput that a cautious rung compares rates with (the window uses 0.8).
    public var cautiousShare = 0.5
    /// Below this buffer the playing item takes the cautious rung.
    public var lowBufferMilliseconds = 4000
    /// The playing item comes before every neighbour while it has less than this buffered.
    public var playingFirstMilliseconds = 3000
    /// The playing item also comes first while its buffer is under this many times the time the next neighbour
    /// chunk would take, so a slow link never spends the playing item's last seconds on a neighbour.
    public var fetchTimeMultiple = 4.0

    public init() {}

    /// How far to preload `video` as a neighbour: whole seconds k with r(k) / r(0) ≥ `keep`, within the bounds.
    public func neighbourCapMilliseconds(_ video: ShortVideo) -> Int {
        let start = video.retention(atSecond: 0)
        guard start > 0 else { return neighbourMilliseconds.lowerBound }
        var seconds = 0
        while seconds * 1000 < neighbourMilliseconds.upperBound, video.retention(atSecond: seconds) / start >= keep {
            seconds += 1
        }
        return min(neighbourMilliseconds.upperBound, max(neighbourMilliseconds.lowerBound, seconds * 1000))
    }
}
