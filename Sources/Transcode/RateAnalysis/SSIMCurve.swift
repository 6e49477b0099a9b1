internal import Foundation

/// How a rendition's SSIM-Y falls as its CRF rises on one clip, from two probe encodes. The distortion 1 − SSIM-Y
/// grows about geometrically with the CRF (each step scales the quantiser by the same factor), so log(1 − SSIM-Y) is
/// taken as a straight line through the two probes. Pure: the probes are measured by `RateProbe`.
struct SSIMCurve: Sendable, Equatable {
    /// log(1 − SSIM-Y) = intercept + slope × CRF; a slope of 0 is a flat curve (see `init`).
    let intercept: Double
    let slope: Double

    /// The curve through two probes at different CRFs. When the higher CRF did not measure lower (a VBV cap that binds
    /// at both, or a picture so plain that both are perfect), quality does not depend on the CRF there: the curve is
    /// flat at the lower of the two measurements.
    init?(_ a: RateProbePoint, _ b: RateProbePoint) {
        guard a.crf != b.crf, (0...1).contains(a.ssimY), (0...1).contains(b.ssimY) else { return nil }
        let (low, high) = a.crf < b.crf ? (a, b) : (b, a)
        let floor = 1e-6  // SSIM-Y of exactly 1 has no logarithm; a millionth is below anything measurable here
        let distortionLow = max(1 - low.ssimY, floor), distortionHigh = max(1 - high.ssimY, floor)
        if distortionHigh <= distortionLow {
            slope = 0
            intercept = log(max(distortionLow, distortionHigh))
        } else {
            slope = (log(distortionHigh) - log(distortionLow)) / Double(high.crf - low.crf)
            intercept = log(distortionLow) - slope * Double(low.crf)
        }
    }

    /// The SSIM-Y this curve predicts at `crf`.
    func ssimY(atCRF crf: Int) -> Double {
        1 - exp(intercept + slope * Double(crf))
    }

    /// The highest CRF in `range` whose predicted SSIM-Y is at least `target`; nil when even the lowest falls short.
    func highestCRF(keeping target: Double, in range: ClosedRange<Int>) -> Int? {
        range.reversed().first { ssimY(atCRF: $0) >= target }
    }
}
