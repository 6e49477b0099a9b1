internal import Foundation

/// 4x oversampling for true-peak detection (ITU-R BS.1770-4 Annex 2 asks for at least 4x at 48 kHz): the three
/// points between two samples, each a windowed-sinc FIR over `halfLength` samples on either side.
package struct PeakInterpolator: Sendable {
    /// Taps reach back `halfLength - 1` samples and ahead `halfLength` samples from the sample before the points.
    package let halfLength: Int
    /// `phases[p - 1][j]` weighs sample `n - halfLength + 1 + j` for the point at `n + p / 4`.
    let phases: [[Float]]
    /// The largest sum of absolute tap weights of any phase: no point can exceed the largest nearby sample by more.
    package let worstCaseGain: Float

    package init(halfLength: Int = 8) {
        precondition(halfLength >= 2, "the interpolator needs at least two taps each side")
        self.halfLength = halfLength
        var phases: [[Float]] = []
        for p in 1...3 {
            let fraction = Double(p) / 4
            var taps: [Double] = []
            for j in 0..<(2 * halfLength) {
                let offset = Double(j - halfLength + 1) - fraction  // sample position relative to the point
                let sinc = offset == 0 ? 1 : sin(Double.pi * offset) / (Double.pi * offset)
                // A Hann window over the span, centred on the point.
                let window = 0.5 + 0.5 * cos(Double.pi * offset / Double(halfLength))
                taps.append(sinc * window)
            }
            let sum = taps.reduce(0, +)  // unity gain at DC
            phases.append(taps.map { Float($0 / sum) })
        }
        self.phases = phases
        worstCaseGain = phases.map { $0.reduce(0) { $0 + abs($1) } }.max() ?? 1
    }

    /// The largest magnitude at sample `n` and the three points after it, in `samples` (one channel, `n` an index into
    /// it with `halfLength - 1` samples before and `halfLength` after).
    package func peak(_ samples: [Float], at n: Int) -> Float {
        var peak = abs(samples[n])
        let start = n - halfLength + 1
        for taps in phases {
            var sum: Float = 0
            for j in 0..<taps.count { sum += taps[j] * samples[start + j] }
            peak = max(peak, abs(sum))
        }
        return peak
    }
}
