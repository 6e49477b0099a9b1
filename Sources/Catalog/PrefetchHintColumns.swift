package import MediaModel

/// A rendition's prefetch hint as every engine stores it: `init_bytes`, `segment_duration_ms` and `first_segments`.
/// One encoding for both engines, so `reel db copy` moves the column as it is and both read it back the same.
package enum PrefetchHintColumns {
    /// `first_segments` as stored: "duration_ms:bytes" pairs, comma-separated, in order.
    package static func firstSegmentsColumn(_ segments: [PrefetchHint.Segment]) -> String {
        segments.map { "\($0.durationMilliseconds):\($0.bytes)" }.joined(separator: ",")
    }

    /// The segments a stored `first_segments` column lists; nil when it is malformed or empty.
    package static func firstSegments(column: String) -> [PrefetchHint.Segment]? {
        var segments: [PrefetchHint.Segment] = []
        for pair in column.split(separator: ",") {
            let parts = pair.split(separator: ":")
            guard parts.count == 2, let duration = Int(parts[0]), let bytes = Int(parts[1]) else { return nil }
            segments.append(PrefetchHint.Segment(durationMilliseconds: duration, bytes: bytes))
        }
        return segments.isEmpty ? nil : segments
    }

    /// A rendition's prefetch hint from its stored columns; nil when any is NULL (published before hints).
    package static func hint(initBytes: Int?, segmentDuration: Int?, firstSegments: String?) -> PrefetchHint? {
        guard let initBytes, let segmentDuration, let column = firstSegments,
            let segments = Self.firstSegments(column: column)
        else { return nil }
        return PrefetchHint(initBytes: initBytes, segmentDurationMilliseconds: segmentDuration, firstSegments: segments)
    }
}
