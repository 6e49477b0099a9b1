/// What one media playlist and its segments really hold, measured from the files: the facts the variant and
/// ladder rules compare with what the master declares.
struct RenditionAnalysis {
    struct SegmentFacts {
        var uri: String
        /// False when the resource or its range could not be read: such a segment counts in no measurement.
        var exists = false
        var bytes: Int64
        var extinf: Double
        /// Decode time of the first sample of the main track (video when there is one), in seconds.
        var start: Double?
        /// Sum of the main track's sample durations, in seconds.
        var duration: Double?
        var startsWithIDR: Bool?
        /// Decode times of the main track's sync samples, in seconds.
        var keyframes: [Double] = []
    }

    var location: String
    var file: String
    var playlist: MediaPlaylist
    var initSegment: InitSegment?
    var segments: [SegmentFacts] = []
    /// Main-track sample durations (in its timescale) and how often each occurs.
    var sampleDurations: [UInt32: Int] = [:]

    var hasVideo: Bool { initSegment?.video != nil }
    var mainTrack: InitSegment.Track? { initSegment?.video ?? initSegment?.tracks.first }

    var codecs: [String] {
        initSegment?.tracks.compactMap { $0.configuration?.codec ?? $0.format } ?? []
    }

    /// The most common sample duration of the main track, in seconds.
    var frameDuration: Double? {
        guard let timescale = mainTrack?.timescale, timescale > 0,
            let common = sampleDurations.max(by: { $0.value < $1.value || ($0.value == $1.value && $0.key > $1.key) })?
                .key,
            common > 0
        else { return nil }
        return Double(common) / Double(timescale)
    }

    var frameRate: Double? { hasVideo ? frameDuration.map { 1 / $0 } : nil }

    /// Per-segment bit rate (bytes × 8 / EXTINF); the init segment is not counted.
    var peak: (bitsPerSecond: Double, segment: String?) {
        var best: (Double, String?) = (0, nil)
        for segment in segments where segment.extinf > 0 && segment.exists {
            let rate = Double(segment.bytes * 8) / segment.extinf
            if rate > best.0 { best = (rate, segment.uri) }
        }
        return best
    }

    /// Total bytes × 8 over total EXTINF, of the segments that could be read.
    var average: Double {
        let read = segments.filter(\.exists)
        let seconds = read.reduce(0) { $0 + $1.extinf }
        return seconds > 0 ? Double(read.reduce(0) { $0 + $1.bytes } * 8) / seconds : 0
    }

    /// Whether every segment was opened and measured, so its sync samples are all known.
    var isFullyMeasured: Bool { segments.allSatisfy { $0.duration != nil } }

    var allStartWithIDR: Bool { hasVideo && !segments.isEmpty && segments.allSatisfy { $0.startsWithIDR == true } }

    /// Segment start times: decode times when every segment has one, else the running sum of EXTINF.
    var segmentStarts: [Double] {
        if segments.allSatisfy({ $0.start != nil }), let first = segments.first?.start {
            return segments.map { $0.start! - first }
        }
        var total = 0.0
        return segments.map { segment in
            defer { total += segment.extinf }
            return total
        }
    }
}
