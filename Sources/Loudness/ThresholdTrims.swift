/// Stretches of a clip where the limiter holds the peaks lower than its threshold, by some dB each: where a lossy
/// encoder was measured to push the peaks of the limited audio past the ceiling (`LoudnessPlan.boundCodecOvershoot`),
/// only those stretches are lowered, so the rest keeps its loudness. Positions are sample indices of the limiter's
/// input; stretches never overlap and are kept in order.
package struct ThresholdTrims: Sendable, Equatable {
    package struct Stretch: Sendable, Equatable {
        package var range: Range<Int>
        /// How far below the limiter's threshold the peaks in `range` are held (positive dB).
        package var decibels: Double

        package init(range: Range<Int>, decibels: Double) {
            self.range = range
            self.decibels = decibels
        }
    }

    package private(set) var stretches: [Stretch] = []

    package init() {}

    package var isEmpty: Bool { stretches.isEmpty }

    /// Lowers `range` by `decibels` more, on top of what any stretch already lowers there.
    package mutating func lower(_ range: Range<Int>, by decibels: Double) {
        guard !range.isEmpty, decibels > 0 else { return }
        var cuts = Set([range.lowerBound, range.upperBound])
        for stretch in stretches where stretch.range.overlaps(range) {
            cuts.formUnion([stretch.range.lowerBound, stretch.range.upperBound])
        }
        var result = stretches.filter { !$0.range.overlaps(range) }
        let edges = cuts.sorted()
        for (start, end) in zip(edges, edges.dropFirst()) where start < end {
            let piece = start..<end
            let before = stretches.first { $0.range.overlaps(piece) }?.decibels ?? 0
            result.append(Stretch(range: piece, decibels: before + (range.overlaps(piece) ? decibels : 0)))
        }
        stretches = Self.merged(result.filter { $0.decibels > 0 }.sorted { $0.range.lowerBound < $1.range.lowerBound })
    }

    /// The most any stretch lowers within `range` (0 where none does).
    package func deepest(in range: Range<Int>) -> Double {
        stretches.lazy.filter { $0.range.overlaps(range) }.map(\.decibels).max() ?? 0
    }

    /// Neighbours with the same depth become one stretch.
    private static func merged(_ sorted: [Stretch]) -> [Stretch] {
        var out: [Stretch] = []
        for stretch in sorted {
            if let last = out.last, last.range.upperBound == stretch.range.lowerBound,
                last.decibels == stretch.decibels
            {
                out[out.count - 1].range = last.range.lowerBound..<stretch.range.upperBound
            } else {
                out.append(stretch)
            }
        }
        return out
    }
}
