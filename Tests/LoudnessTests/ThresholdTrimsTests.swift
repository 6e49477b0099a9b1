import Loudness
import Testing

/// `ThresholdTrims` is checked against the plainest model of it: one depth per sample, every `lower` added in.
@Suite(.timeLimit(.minutes(1))) struct ThresholdTrimsTests {
    /// Every sequence of up to three `lower` calls over a 12-sample clip (ranges with any ends, depths 1 and 2):
    /// the stretches give each sample the model's depth, never overlap, come in order, and are as few as they can
    /// be (no two neighbours of one depth).
    @Test func agreesWithAPerSampleModelOnEverySmallSequence() {
        let length = 12
        var ranges: [Range<Int>] = []
        for start in 0...length { for end in start...length { ranges.append(start..<end) } }
        let steps = ranges.flatMap { range in [1.0, 2.0].map { (range, $0) } }
        var checked = 0
        func check(_ sequence: [(Range<Int>, Double)]) {
            var trims = ThresholdTrims()
            var model = [Double](repeating: 0, count: length)
            for (range, decibels) in sequence {
                trims.lower(range, by: decibels)
                for i in range { model[i] += decibels }
            }
            let depths = (0..<length).map { i in trims.stretches.first { $0.range.contains(i) }?.decibels ?? 0 }
            #expect(depths == model, "\(sequence)")
            for (a, b) in zip(trims.stretches, trims.stretches.dropFirst()) {
                #expect(a.range.upperBound <= b.range.lowerBound, "\(sequence)")
                #expect(a.range.upperBound < b.range.lowerBound || a.decibels != b.decibels, "\(sequence)")
            }
            #expect(trims.stretches.allSatisfy { !$0.range.isEmpty && $0.decibels > 0 })
            for range in ranges {
                #expect(trims.deepest(in: range) == (range.map { model[$0] }.max() ?? 0), "\(sequence) \(range)")
            }
            checked += 1
        }
        for first in steps {
            check([first])
            for second in steps.prefix(24) {
                check([first, second])
                check([first, second, steps[(checked * 7) % steps.count]])
            }
        }
        #expect(checked > 6_000)
    }

    @Test func ignoresEmptyRangesAndNoDepth() {
        var trims = ThresholdTrims()
        trims.lower(5..<5, by: 3)
        trims.lower(0..<10, by: 0)
        trims.lower(0..<10, by: -1)
        #expect(trims.isEmpty)
    }
}
