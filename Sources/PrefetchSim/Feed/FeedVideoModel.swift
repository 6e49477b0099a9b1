public import MediaModel

/// A published feed video as the client model sees it: its renditions' real sizes where the feed's prefetch hints
/// give them (the init segment and the first segments covering the prefetch window), the rendition's average bit
/// rate times the duration where they do not. Pure: the CLI reads the catalog and hands the rows over.
public struct FeedVideoModel: Sendable, Equatable {
    /// One rendition, as the catalog stores it.
    public struct Rendition: Sendable, Equatable {
        public var id: String
        /// AVERAGE-BANDWIDTH, bits per second: what the rung choice compares throughput with, and the estimate's rate.
        public var averageBandwidth: Int
        public var segments: Int
        /// nil for videos published before Reel measured hints: then every size of this rendition is estimated.
        public var prefetch: PrefetchHint?

        public init(id: String, averageBandwidth: Int, segments: Int, prefetch: PrefetchHint?) {
            self.id = id
            self.averageBandwidth = averageBandwidth
            self.segments = segments
            self.prefetch = prefetch
        }
    }

    public let name: String
    public let durationMilliseconds: Int
    /// Cheapest first: the order the simulator's rung numbers follow.
    public let renditions: [Rendition]
    /// Each segment's duration, shared by all renditions (their IDRs line up).
    public let segmentMilliseconds: [Int]

    /// - Throws: `FeedVideoModelError` when the video has no rendition, no segment or no duration.
    public init(name: String, durationMilliseconds: Int, renditions: [Rendition]) throws(FeedVideoModelError) {
        guard durationMilliseconds > 0 else { throw FeedVideoModelError(video: name, reason: .noDuration) }
        guard !renditions.isEmpty else { throw FeedVideoModelError(video: name, reason: .noRenditions) }
        let sorted = renditions.sorted { $0.averageBandwidth < $1.averageBandwidth }
        guard let count = sorted.map(\.segments).max(), count > 0 else {
            throw FeedVideoModelError(video: name, reason: .noSegments)
        }
        self.name = name
        self.durationMilliseconds = durationMilliseconds
        self.renditions = sorted
        segmentMilliseconds = Self.plan(
            duration: durationMilliseconds, segments: count, hint: sorted.lazy.compactMap(\.prefetch).first)
    }

    /// Whether a rendition's sizes come from its hint (measured) or from its bit rate (estimated).
    public enum SizeSource: String, Sendable { case measured, estimated }

    public func sizeSource(rung: Int) -> SizeSource { renditions[rung].prefetch == nil ? .estimated : .measured }

    /// The renditions without a hint, whose sizes are estimates.
    public var estimatedRenditions: [String] { renditions.filter { $0.prefetch == nil }.map(\.id) }

    /// Bytes of segment `k` at `rung`: the hint's when it lists the segment, else average rate × duration.
    public func segmentBytes(rung: Int, segment k: Int) -> Int {
        let rendition = renditions[rung]
        if let hint = rendition.prefetch, k < hint.firstSegments.count { return hint.firstSegments[k].bytes }
        return Int((Double(rendition.averageBandwidth) * Double(segmentMilliseconds[k]) / 8000).rounded())
    }

    /// The init segment's bytes at `rung`; 0 without a hint (a player fetches one, but its size is not known).
    public func initBytes(rung: Int) -> Int { renditions[rung].prefetch?.initBytes ?? 0 }

    /// What buffering the prefetch window costs at `rung`: the init segment and the first segments that cover
    /// `window` ms (the hint's own `windowBytes` when the rendition has one).
    public func windowBytes(rung: Int, window: Int = PrefetchHint.windowMilliseconds) -> Int {
        if let hint = renditions[rung].prefetch { return hint.windowBytes }
        var covered = 0, bytes = initBytes(rung: rung), k = 0
        while covered < window, k < segmentMilliseconds.count {
            bytes += segmentBytes(rung: rung, segment: k)
            covered += segmentMilliseconds[k]
            k += 1
        }
        return bytes
    }

    /// The simulator's video: one chunk per segment, each rung's init segment and average rate.
    public func shortVideo(retention: [Double] = []) -> ShortVideo {
        ShortVideo(
            name: name,
            chunkBytes: renditions.indices.map { rung in
                segmentMilliseconds.indices.map { segmentBytes(rung: rung, segment: $0) }
            },
            chunkMilliseconds: segmentMilliseconds, initBytes: renditions.indices.map(initBytes(rung:)),
            rungKbps: renditions.map { Double($0.averageBandwidth) / 1000 }, retention: retention)
    }

    /// The hint's first segments as they are, then segments of the target duration, the last one taking what is
    /// left of the video; without a hint, `segments` equal parts. Every segment lasts at least 1 ms.
    static func plan(duration: Int, segments count: Int, hint: PrefetchHint?) -> [Int] {
        guard let hint, hint.segmentDurationMilliseconds > 0 else {
            return (0..<count).map { duration * ($0 + 1) / count - duration * $0 / count }.map { max(1, $0) }
        }
        var plan = hint.firstSegments.prefix(count).map { max(1, $0.durationMilliseconds) }
        var left = duration - plan.reduce(0, +)
        let rest = count - plan.count
        for index in 0..<rest {
            let remaining = rest - index  // segments still to place, this one included
            let length = remaining == 1 ? left : min(hint.segmentDurationMilliseconds, left - (remaining - 1))
            plan.append(max(1, length))
            left -= length
        }
        return plan
    }
}
