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
            slope = (log(distortionHigh) - log(distortionLow)) / (high.crf - low.crf)
            intercept = log(distortionLow) - slope * low.crf
        }
    }

    /// The SSIM-Y this curve predicts at `crf`.
    func ssimY(atCRF crf: Double) -> Double {
        1 - exp(intercept + slope * crf)
    }

    /// The highest CRF of `codec`'s grid (`VideoCodec.crfStep`) in `range` whose predicted SSIM-Y is at least
    /// `target`; nil when even the lowest falls short.
    func highestCRF(keeping target: Double, in range: ClosedRange<Double>, codec: VideoCodec) -> Double? {
        let top = codec.crf(onGrid: range.upperBound)
        if ssimY(atCRF: top) >= target { return top }
        guard slope > 0, target < 1, ssimY(atCRF: range.lowerBound) >= target else { return nil }
        // Where the line meets the target, then down onto the grid (never below the range).
        let exact = (log(1 - target) - intercept) / slope
        var crf = codec.crf(onGrid: min(exact, top))
        while crf > range.lowerBound, ssimY(atCRF: crf) < target { crf = codec.crf(onGrid: crf - codec.crfStep) }
        return max(crf, range.lowerBound)
    }
}
