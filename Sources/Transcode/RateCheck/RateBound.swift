internal import Foundation

/// The design's bounds on a content-aware ladder's quality, set against what each rendition measured once encoded,
/// and the CRF a rendition outside its bound is encoded at again (pure: `RenditionMeter` measures).
///
/// H.264 keeps within `maxDrop` of the SSIM-Y its rung's own CRF gives the clip; HEVC and AV1 keep within
/// `codecDrop` of the rung's H.264 rendition, which is measured. The H.264 reference is measured on parts of the clip
/// (`Part`), never on all of it, which would cost the plain ladder again; the part that lost most stands for the
/// clip. Measuring also corrects the line between the probes, which bends: on testsrc2, CRF 24.2 lost 0.0028 at 720p
/// where the line through CRF 21 and 29 foretold 0.0025.
struct RateBound: Sendable {
    /// HEVC and AV1 against the rung's H.264 rendition: the design's 0.002.
    static let codecDrop = 0.002
    /// How far inside its bound a rendition encoded again aims: the line between two measured points still bends.
    static let aim = 0.0005

    /// H.264 against its rung's own CRF (`max_ssim_drop`).
    let maxDrop: Double

    /// Part of a clip on which an H.264 rendition and its rung's own CRF were both measured: the probe windows (the
    /// probe at that CRF), or a sample of the clip's GOPs (an encoder at that CRF beside the ladder).
    struct Part: Sendable, Equatable {
        var ssimY: Double
        var referenceSSIMY: Double
        var drop: Double { referenceSSIMY - ssimY }
    }

    /// The SSIM-Y the rung's own CRF gives the clip, as the part that lost most says: the rendition's `ssimY` over
    /// the clip plus that part's drop. nil without parts.
    static func h264Reference(ssimY: Double, parts: [Part]) -> Double? {
        parts.map(\.drop).max().map { ssimY + $0 }
    }

    /// The CRF to encode an H.264 rendition at again, which came out outside its bound at `crf` (its rung's own is
    /// `base`): the highest on the grid that the `part` that lost most, measured at both CRFs, puts `aim` inside the
    /// bound, at least one step below `crf`; `base` when the part cannot draw the line.
    func h264Retry(base: Double, crf: Double, part: Part) -> Double {
        let base = VideoCodec.h264.crf(onGrid: base)
        let distortion = 1 - part.ssimY, reference = 1 - part.referenceSSIMY
        guard crf > base, reference > 0, distortion > reference else { return base }
        let slope = log(distortion / reference) / (crf - base)
        let allowed = maxDrop - Self.aim
        guard allowed > 0 else { return base }
        let exact = base + log(1 + allowed / reference) / slope
        let crf = min(VideoCodec.h264.crf(onGrid: exact), VideoCodec.h264.crf(onGrid: crf - VideoCodec.h264.crfStep))
        return max(crf, base)
    }

    /// The CRF to encode an HEVC or AV1 rendition at again, whose `attempts` (CRF, SSIM-Y over the clip; the last
    /// one outside) fell short of `lowest`: `aim` above it on the line through its last two attempts, or along
    /// `probeSlope` (its probes' d log(1 − SSIM-Y) / d CRF) after one, else half a probe `step` down; at least one
    /// grid step below the last CRF, and no more than a `step` (a probed slope from another rung can be far off: on
    /// testsrc2, 720p's sent AV1's 1080p from CRF 43 to 29, where it spent more bytes than H.264). nil when the
    /// codec's scale ends there.
    func otherRetry(
        _ codec: VideoCodec, attempts: [(crf: Double, ssimY: Double)], lowest: Double, probeSlope: Double?,
        step: Int
    ) -> Double? {
        guard let last = attempts.last else { return nil }
        let floor = Double(codec.crfRange.lowerBound)
        guard last.crf > floor else { return nil }
        var slope = probeSlope ?? 0
        if attempts.count >= 2 {
            let previous = attempts[attempts.count - 2]
            let rise = log(max(1 - last.ssimY, 1e-6)) - log(max(1 - previous.ssimY, 1e-6))
            if last.crf != previous.crf, rise / (last.crf - previous.crf) > 0 {
                slope = rise / (last.crf - previous.crf)
            }
        }
        let goal = min(lowest + Self.aim, 1 - 1e-6)
        let exact: Double =
            slope > 0
            ? last.crf - (log(max(1 - last.ssimY, 1e-6)) - log(1 - goal)) / slope
            : last.crf - Double(max(1, step / 2))
        let crf = min(
            codec.crf(onGrid: max(exact, last.crf - Double(max(1, step)))), codec.crf(onGrid: last.crf - codec.crfStep))
        return max(crf, floor)
    }
}
