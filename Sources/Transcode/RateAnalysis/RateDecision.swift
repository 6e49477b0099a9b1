internal import Foundation

/// Chooses each rendition's CRF from its two probes (pure: the probes are measured by `RateProbe`).
///
/// H.264 is probed at the rung's own CRF and `max_crf_raise` above it, and takes the highest CRF between them that
/// keeps both the rung's `target_ssim_y` and its SSIM-Y at the rung's CRF less `max_ssim_drop`: an easy clip, whose
/// quality hardly moves with the CRF, rises far; a hard one stays where it was. HEVC and AV1 are probed around the
/// H.264 choice plus their `crf_offset`, and take the highest CRF that keeps the H.264 rendition's predicted SSIM-Y
/// less `codec_ssim_margin`: the same quality for fewer bytes. Where the rung's VBV cap holds H.264 below what its
/// probes measured, that is the capped quality (`ssimYAtCap`), which a more efficient codec reaches under the cap.
///
/// A rise that saves next to no bytes in the probes is not taken: the rung's VBV cap decides the rate there, and
/// the parts of the clip between the windows, where the cap may not bind, would lose quality for nothing.
struct RateDecision: Sendable {
    /// The share of bytes the highest H.264 probe must save against the rung's CRF for the CRF to rise at all.
    static let minimumSaving = 0.05
    /// How far inside `max_ssim_drop` an H.264 rung aims. The line between its probes bends: aiming at the bound itself,
    /// a testsrc2 clip's rungs lost 0.0027 and Megamind's 0.0026, each a whole re-encode for the check
    /// (`RateChecker`) to make.
    static let aimInside = 0.0003

    struct Choice: Sendable, Equatable {
        var crf: Double
        var targetSSIMY: Double
        var predictedSSIMY: Double
    }

    let settings: LadderPreset.ContentAware

    /// The two CRFs an H.264 rung is probed at: its own and the highest it may rise to.
    func h264ProbeCRFs(base: Double) -> [Double] {
        let low = VideoCodec.h264.crf(onGrid: base)
        return [low, VideoCodec.h264.crf(onGrid: low + Double(settings.maxCRFRaise))]
    }

    /// The H.264 rung's CRF from its probes at `h264ProbeCRFs(base:)`. Its predicted SSIM-Y, which the other codecs
    /// aim at, is no more than what the rung's VBV cap `maxKbps` allows (`ssimYAtCap`).
    func h264(base: Double, target: Double?, probes: [RateProbePoint], maxKbps: Double? = nil) -> Choice {
        let choice = uncappedH264(base: base, target: target, probes: probes)
        guard let maxKbps, let capped = Self.ssimYAtCap(probes, maxKbps: maxKbps) else { return choice }
        return Choice(
            crf: choice.crf, targetSSIMY: choice.targetSSIMY, predictedSSIMY: min(choice.predictedSSIMY, capped))
    }

    private func uncappedH264(base: Double, target: Double?, probes: [RateProbePoint]) -> Choice {
        let base = VideoCodec.h264.crf(onGrid: base)
        guard let atBase = probes.first(where: { $0.crf == base }) else {
            return Choice(crf: base, targetSSIMY: target ?? 0, predictedSSIMY: probes.first?.ssimY ?? 0)
        }
        let floor = max(target ?? 0, atBase.ssimY - max(0, settings.maxSSIMDrop - Self.aimInside))
        guard probes.count == 2, let curve = SSIMCurve(probes[0], probes[1]),
            let highest = probes.max(by: { $0.crf < $1.crf }), highest.crf > base,
            highest.kilobitsPerSecond < atBase.kilobitsPerSecond * (1 - Self.minimumSaving)
        else {
            return Choice(crf: base, targetSSIMY: floor, predictedSSIMY: atBase.ssimY)
        }
        let top = VideoCodec.h264.crf(onGrid: base + Double(settings.maxCRFRaise))
        let crf = curve.highestCRF(keeping: floor, in: base...top, codec: .h264) ?? base
        return Choice(
            crf: crf, targetSSIMY: floor, predictedSSIMY: crf == base ? atBase.ssimY : curve.ssimY(atCRF: crf))
    }

    /// Why the first probes (one rung's, over one window) leave no headroom, so that no other rung is probed: nil when
    /// `choice`, read from `probes` at `h264ProbeCRFs(base:)`, rose above the base CRF, or when the probes cannot tell
    /// (a probe missing). `noSaving`: the higher CRF saves under `minimumSaving` of the bytes (the VBV cap or the
    /// picture holds the rate at both); `qualityBinds`: it saves, but SSIM-Y reaches its floor (`target_ssim_y`, or
    /// `max_ssim_drop` below the base) within one CRF step.
    func stopReason(base: Double, choice: Choice, probes: [RateProbePoint]) -> RateAnalysis.StopReason? {
        let base = VideoCodec.h264.crf(onGrid: base)
        guard choice.crf <= base, let atBase = probes.first(where: { $0.crf == base }),
            let highest = probes.max(by: { $0.crf < $1.crf }), highest.crf > base
        else { return nil }
        return highest.kilobitsPerSecond < atBase.kilobitsPerSecond * (1 - Self.minimumSaving)
            ? .qualityBinds : .noSaving
    }

    /// The SSIM-Y a rendition keeps when its VBV cap `maxKbps` holds it, from its two probes: log(1 − SSIM-Y) taken as
    /// a straight line in log(rate) through them. A probe window (a GOP or two, from a full buffer) may spend more
    /// than the cap, which a whole clip cannot: on a clip at the cap, H.264's probe at CRF 21 measured 0.9761 at
    /// 3581 kb/s against a 3000 kb/s cap, the clip got 0.9746, and this gives 0.9749. nil when the probe at the lower
    /// CRF kept within the cap (the cap does not bind) or the probes cannot draw the line.
    static func ssimYAtCap(_ probes: [RateProbePoint], maxKbps: Double) -> Double? {
        guard probes.count == 2, maxKbps > 0 else { return nil }
        let (low, high) = probes[0].crf < probes[1].crf ? (probes[0], probes[1]) : (probes[1], probes[0])
        guard low.crf < high.crf, low.kilobitsPerSecond > maxKbps, high.kilobitsPerSecond > 0,
            low.kilobitsPerSecond > high.kilobitsPerSecond, (0..<1).contains(low.ssimY), (0..<1).contains(high.ssimY)
        else {
            return nil
        }
        let t: Double = log(low.kilobitsPerSecond / maxKbps) / log(low.kilobitsPerSecond / high.kilobitsPerSecond)
        let lowDistortion: Double = log(1 - low.ssimY), highDistortion: Double = log(1 - high.ssimY)
        let distortion: Double = exp(lowDistortion + t * (highDistortion - lowDistortion))
        return min(max(1 - distortion, 0), low.ssimY)
    }

    /// The two CRFs `codec` is probed at on a rung whose H.264 rendition took `h264CRF`: `step` apart, around
    /// `h264CRF + offset`, inside the codec's CRF scale.
    func probeCRFs(_ codec: VideoCodec, h264CRF: Double, offset: Int, step: Int) -> [Double] {
        let range = codec.crfRange
        let half = Double(max(1, step / 2))
        let center = min(
            max(codec.crf(onGrid: h264CRF + Double(offset)), Double(range.lowerBound) + half),
            Double(range.upperBound) - half)
        return [center - half, center + half]
    }

    /// Where to probe `codec` next when its `choice` from `probes` is the higher probe (the target holds there, so it
    /// may hold higher still): a `step` above, inside the codec's scale; nil when the choice is below the higher probe
    /// or the scale ends there. The line is not followed past a probe: SVT-AV1 falls faster than it there.
    func higherProbeCRF(_ codec: VideoCodec, choice: Choice, probes: [RateProbePoint], step: Int) -> Double? {
        guard probes.count == 2, let highest = probes.map(\.crf).max(), choice.crf >= highest,
            highest < Double(codec.crfRange.upperBound)
        else { return nil }
        return codec.crf(onGrid: highest + Double(step))
    }

    /// `codec`'s CRF on a rung from its probes: the highest that keeps the H.264 rendition's predicted SSIM-Y less the
    /// margin, looked for between the probes and up to a whole step below them, never above the higher one: SVT-AV1's
    /// quality falls faster than the line past its probes (a choice 6 above them came out 0.002 lower than foretold).
    /// When even the lowest CRF there falls short, the lowest: the most quality the search allows.
    func other(_ codec: VideoCodec, probes: [RateProbePoint], h264PredictedSSIMY: Double, step: Int) -> Choice {
        let target = h264PredictedSSIMY - settings.codecSSIMMargin
        let crfs = probes.map(\.crf)
        guard let lowest = crfs.min(), let highest = crfs.max() else {
            return Choice(crf: Double(codec.crfRange.lowerBound), targetSSIMY: target, predictedSSIMY: 0)
        }
        let range = codec.crf(onGrid: lowest - Double(step))...codec.crf(onGrid: highest)
        guard probes.count == 2, let curve = SSIMCurve(probes[0], probes[1]) else {
            let best = probes.min { $0.crf < $1.crf }!
            return Choice(crf: best.crf, targetSSIMY: target, predictedSSIMY: best.ssimY)
        }
        let crf = curve.highestCRF(keeping: target, in: range, codec: codec) ?? range.lowerBound
        return Choice(crf: crf, targetSSIMY: target, predictedSSIMY: curve.ssimY(atCRF: crf))
    }
}
