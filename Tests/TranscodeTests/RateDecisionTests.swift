import Foundation
import TestTraits
import Testing

@testable import Transcode

/// The content-aware choice of CRFs, from probe points made up to cover every branch (`RateDecision`, `SSIMCurve`,
/// `RateAnalyzer.windows`); the probes themselves are measured in `ContentAwareLadderTests`.
@Suite(.offThePool, .timeLimit(.minutes(5))) struct RateDecisionTests {
    let settings = LadderPreset.ContentAware(
        enabled: true, samples: 3, sampleSeconds: 1, maxCRFRaise: 8, maxSSIMDrop: 0.0025,
        codecSSIMMargin: 0.001)
    var decision: RateDecision { RateDecision(settings: settings) }

    /// A probe point; by default each CRF step above 21 saves 10 % of the bytes.
    func point(_ crf: Double, _ ssim: Double, kbps: Double? = nil) -> RateProbePoint {
        RateProbePoint(crf: crf, ssimY: ssim, kilobitsPerSecond: kbps ?? 1000 * pow(0.9, crf - 21))
    }

    // MARK: the curve

    @Test func theCurvePassesThroughBothProbesAndFallsBetweenThem() throws {
        let curve = try #require(SSIMCurve(point(21, 0.99), point(29, 0.96)))
        #expect(abs(curve.ssimY(atCRF: 21) - 0.99) < 1e-12)
        #expect(abs(curve.ssimY(atCRF: 29) - 0.96) < 1e-12)
        for crf in stride(from: 21.0, to: 29, by: 0.5) {
            #expect(curve.ssimY(atCRF: crf) > curve.ssimY(atCRF: crf + 0.5))
        }
        // Distortion grows geometrically: halfway in CRF is the geometric mean of the distortions, 1 - sqrt(0.01 * 0.04).
        #expect(abs(curve.ssimY(atCRF: 25) - 0.98) < 1e-12)
    }

    @Test func probesInEitherOrderGiveTheSameCurve() {
        #expect(SSIMCurve(point(21, 0.99), point(29, 0.96)) == SSIMCurve(point(29, 0.96), point(21, 0.99)))
    }

    @Test(arguments: [(0.97, 0.97), (0.97, 0.975), (1.0, 1.0)])
    func aHigherCRFThatMeasuresNoWorseGivesAFlatCurveAtTheLowerMeasurement(low: Double, high: Double) throws {
        let curve = try #require(SSIMCurve(point(21, low), point(29, high)))
        #expect(curve.slope == 0)
        for crf: Double in [0, 21, 25, 29, 51] { #expect(abs(curve.ssimY(atCRF: crf) - min(low, high)) < 2e-6) }
    }

    @Test(arguments: [(21.0, 0.99, 21.0, 0.95), (21, 1.2, 29, 0.9), (21, 0.99, 29, -0.1)])
    func probesAtOneCRFOrOutsideZeroToOneMakeNoCurve(a: Double, sa: Double, b: Double, sb: Double) {
        #expect(SSIMCurve(point(a, sa), point(b, sb)) == nil)
    }

    @Test(arguments: [VideoCodec.h264, .hevc, .av1])
    func theHighestCRFKeepingATargetIsTheLastOneOfTheCodecsGridAtOrAboveIt(codec: VideoCodec) throws {
        let curve = try #require(SSIMCurve(point(21, 0.99), point(29, 0.96)))
        for target in stride(from: 0.955, through: 0.995, by: 0.0005) {
            let found = curve.highestCRF(keeping: target, in: 21...29, codec: codec)
            if let found {
                #expect(curve.ssimY(atCRF: found) >= target)
                #expect(found == codec.crf(onGrid: found) && (21...29).contains(found), "\(found) is on the grid")
                if found < 29 { #expect(curve.ssimY(atCRF: found + codec.crfStep) < target, "\(target): \(found)") }
            } else {
                #expect(curve.ssimY(atCRF: 21) < target)
            }
        }
    }

    @Test func x264AndX265TakeTenthsOfACRFAndSVTAV1WholeOnes() {
        #expect(VideoCodec.h264.crf(onGrid: 22.47) == 22.4 && VideoCodec.hevc.crf(onGrid: 22.4) == 22.4)
        #expect(
            VideoCodec.h264.crf(onGrid: 23.0 - 1e-9) == 23, "a hair below a step is that step, not the one under it")
        #expect(VideoCodec.av1.crf(onGrid: 36.9) == 36 && VideoCodec.av1.crf(onGrid: 0.5) == 1)
        #expect(VideoCodec.h264.crf(onGrid: 60) == 51 && VideoCodec.h264.crf(onGrid: -3) == 0)
        #expect(VideoCodec.optionText(crf: 21) == "21" && VideoCodec.optionText(crf: 22.4) == "22.4")
        #expect(VideoCodec.optionText(crf: 0.1 + 0.2) == "0.3")
    }

    /// Other codecs are probed on the rung nearest 720p, and also on any rung whose H.264 probe at its own CRF spent
    /// more than its cap when that rung's did not (the cap sets the quality there, not the CRF distance).
    @Test(arguments: [
        ([1000.0, 2000, 5000], []),  // every rung under its cap (1.5, 3 and 6 Mb/s)
        ([1000, 2000, 6500], [2]),
        ([1600, 2000, 6500], [0, 2]),
        ([1600, 3200, 6500], []),  // the probed rung is capped too: its distance holds for the capped rungs
        ([1000, 2000, 6000], []),  // at the cap is not over it
    ])
    func otherCodecsAreProbedAlsoWhereOnlyH264sCapBinds(kbps: [Double], extra: [Int]) {
        let plan = LadderPlanner(preset: .default).plan(
            .init(width: 1080, height: 1920, rotation: 0, averageFrameRate: 30, realFrameRate: 30))
        let probed = RateAnalyzer.probedRung(plan)
        #expect(plan.rungs[probed].id == "720p")
        let records = zip(plan.rungs, kbps).map { rung, rate in
            RateAnalysis.Rendition(
                id: rung.id, rung: rung.id, videoCodec: .h264, crf: 23, targetSSIMY: nil, predictedSSIMY: nil,
                probes: [point(29, 0.98, kbps: rate / 3), point(21, 0.99, kbps: rate)])
        }
        #expect(RateAnalyzer.cappedRungs(plan, probes: records, besides: probed) == extra, "\(kbps)")
        #expect(RateAnalyzer.cappedRungs(plan, probes: [], besides: probed).isEmpty, "no probes: nothing is capped")
    }

    // MARK: H.264

    @Test func h264IsProbedAtItsCRFAndTheHighestItMayRiseTo() {
        #expect(decision.h264ProbeCRFs(base: 21) == [21, 29])
        #expect(decision.h264ProbeCRFs(base: 48) == [48, 51])
        #expect(decision.h264ProbeCRFs(base: 60) == [51, 51])
    }

    @Test func anEasyClipRisesUntilItHasLostTheAllowedSSIM() {
        // Quality hardly moves with the CRF: 0.998 at 21, 0.994 at 29. The floor is 0.998 - 0.0025, aimed 0.0003
        // inside: 0.9958.
        let choice = decision.h264(base: 21, target: 0.99, probes: [point(21, 0.998), point(29, 0.994)])
        #expect(choice.crf > 21)
        #expect(choice.targetSSIMY == 0.998 - (0.0025 - RateDecision.aimInside))
        #expect(choice.predictedSSIMY >= choice.targetSSIMY)
        let curve = SSIMCurve(point(21, 0.998), point(29, 0.994))!
        #expect(curve.ssimY(atCRF: choice.crf + 0.1) < choice.targetSSIMY)
        #expect(choice.crf != choice.crf.rounded(), "a fractional CRF spends the allowance: \(choice.crf)")
    }

    @Test func aClipWhoseQualityHoldsEverywhereTakesTheHighestCRF() {
        let choice = decision.h264(base: 21, target: 0.99, probes: [point(21, 0.9995), point(29, 0.9990)])
        #expect(choice.crf == 29)
    }

    @Test func theRungTargetStopsTheRiseBeforeTheDropDoes() {
        // The drop alone would allow down to 0.990; the rung asks for 0.992.
        let probes = [point(21, 0.9925), point(29, 0.980)]
        let choice = decision.h264(base: 21, target: 0.992, probes: probes)
        #expect(choice.targetSSIMY == 0.992)
        #expect(choice.predictedSSIMY >= 0.992)
        let withoutTarget = decision.h264(base: 21, target: nil, probes: probes)
        #expect(withoutTarget.crf > choice.crf)
    }

    @Test func aHardClipBelowItsTargetKeepsItsCRFAndNeverGoesLower() {
        let choice = decision.h264(base: 21, target: 0.99, probes: [point(21, 0.95), point(29, 0.90)])
        #expect(choice.crf == 21)
        #expect(choice.predictedSSIMY == 0.95)
    }

    @Test func aSteepClipRisesLessThanAFlatOne() {
        let steep = decision.h264(base: 21, target: nil, probes: [point(21, 0.990), point(29, 0.960)])
        let flat = decision.h264(base: 21, target: nil, probes: [point(21, 0.990), point(29, 0.985)])
        #expect(steep.crf < flat.crf)
    }

    @Test(arguments: [1000.0, 990, 960])
    func aRiseThatSavesNoBytesInTheProbesIsNotTaken(highKbps: Double) {
        // The VBV cap binds at both CRFs: quality and bytes hardly move, so nothing is gained by rising.
        let choice = decision.h264(
            base: 21, target: nil, probes: [point(21, 0.95, kbps: 1000), point(29, 0.9499, kbps: highKbps)])
        #expect(choice.crf == 21)
        let saving = decision.h264(
            base: 21, target: nil, probes: [point(21, 0.95, kbps: 1000), point(29, 0.9499, kbps: 940)])
        #expect(saving.crf == 29)
    }

    @Test func withoutAProbeAtItsOwnCRFARungKeepsIt() {
        let choice = decision.h264(base: 21, target: 0.99, probes: [point(29, 0.99)])
        #expect(choice.crf == 21)
    }

    // MARK: the first probes

    /// Over a grid of what the higher probe can measure (SSIM-Y at and below the base's, any saving) and every target:
    /// the first probes stop the analysis exactly when the rung would keep its CRF, and the reason is the saving.
    @Test func theFirstProbesStopExactlyWhenTheRungKeepsItsCRFAndSayWhy() {
        var stops: Set<RateAnalysis.StopReason> = []
        var goesOn = 0
        for target in [nil, 0.95, 0.985, 0.999] {
            for topSSIM in stride(from: 0.95, through: 0.99, by: 0.0005) {
                for percent in 0...60 {
                    let saving = Double(percent) / 100
                    let probes = [point(21, 0.99, kbps: 1000), point(29, topSSIM, kbps: 1000 * (1 - saving))]
                    let choice = decision.h264(base: 21, target: target, probes: probes)
                    let stopped = decision.stopReason(base: 21, choice: choice, probes: probes)
                    #expect((stopped != nil) == (choice.crf == 21), "\(target ?? 0) \(topSSIM) \(saving): \(choice)")
                    if let stopped {
                        #expect(stopped == (percent > 5 ? .qualityBinds : .noSaving), "\(percent) % saved")
                        stops.insert(stopped)
                    } else {
                        goesOn += 1
                    }
                }
            }
        }
        #expect(stops == [.noSaving, .qualityBinds] && goesOn > 0, "every branch is reached")
    }

    @Test func firstProbesThatCannotTellDoNotStopTheAnalysis() {
        let kept = RateDecision.Choice(crf: 21, targetSSIMY: 0.985, predictedSSIMY: 0.99)
        for probes in [[], [point(21, 0.99)], [point(29, 0.97)], [point(21, 0.99), point(21, 0.98)]] {
            #expect(decision.stopReason(base: 21, choice: kept, probes: probes) == nil, "\(probes)")
        }
    }

    // MARK: HEVC and AV1

    @Test func otherCodecsAreProbedAroundTheH264ChoicePlusTheirOffsetInsideTheirScale() {
        #expect(decision.probeCRFs(.hevc, h264CRF: 24, offset: 4, step: 6) == [25, 31])
        #expect(decision.probeCRFs(.av1, h264CRF: 24, offset: 14, step: 12) == [32, 44])
        #expect(decision.probeCRFs(.hevc, h264CRF: 50, offset: 4, step: 6) == [45, 51])
        #expect(decision.probeCRFs(.av1, h264CRF: 0, offset: 0, step: 12) == [1, 13])
    }

    @Test func anotherCodecTakesTheHighestCRFWithinTheMarginOfH264sQuality() {
        let probes = [point(25, 0.996), point(31, 0.990)]
        let choice = decision.other(.hevc, probes: probes, h264PredictedSSIMY: 0.994, step: 6)
        #expect(choice.targetSSIMY == 0.994 - 0.001)
        #expect(choice.predictedSSIMY >= choice.targetSSIMY)
        let curve = SSIMCurve(probes[0], probes[1])!
        #expect(curve.ssimY(atCRF: choice.crf + 0.1) < choice.targetSSIMY)
    }

    @Test func anotherCodecLooksNoHigherThanItsProbesAndAStepBelow() {
        // Better than H.264 everywhere: it rises only to its higher probe.
        let high = decision.other(
            .hevc, probes: [point(25, 0.999), point(31, 0.998)], h264PredictedSSIMY: 0.99, step: 6)
        #expect(high.crf == 31)
        // Worse everywhere: the lowest CRF looked at, 25 - 6.
        let low = decision.other(.hevc, probes: [point(25, 0.97), point(31, 0.95)], h264PredictedSSIMY: 0.99, step: 6)
        #expect(low.crf == 19)
        // Short at both probes but within reach a step below: the line is followed down to the target.
        let reach = decision.other(
            .hevc, probes: [point(29, 0.9463), point(35, 0.8935)], h264PredictedSSIMY: 0.9717, step: 6)
        #expect((23..<24).contains(reach.crf) && reach.predictedSSIMY >= 0.9717 - 0.001, "\(reach)")
        // And never outside the codec's scale.
        let av1 = decision.other(.av1, probes: [point(1, 0.96), point(13, 0.95)], h264PredictedSSIMY: 0.99, step: 12)
        #expect(av1.crf == 1)
        // SVT-AV1 takes whole CRFs only: the choice is the whole one below where the line meets the target.
        let whole = decision.other(
            .av1, probes: [point(32, 0.990), point(44, 0.970)], h264PredictedSSIMY: 0.9855, step: 12)
        #expect(whole.crf == whole.crf.rounded() && whole.crf > 32 && whole.crf < 44, "\(whole)")
        let line = SSIMCurve(point(32, 0.990), point(44, 0.970))!
        #expect(
            line.ssimY(atCRF: whole.crf) >= whole.targetSSIMY && line.ssimY(atCRF: whole.crf + 1) < whole.targetSSIMY)
    }

    @Test func aCodecWhoseChoiceIsItsHigherProbeIsProbedAStepAbove() {
        // Better than H.264 at both probes: the choice is the higher one, and the next probe is a step above it.
        let probes = [point(36, 0.9935), point(48, 0.9904)]
        let top = decision.other(.av1, probes: probes, h264PredictedSSIMY: 0.9892, step: 12)
        #expect(top.crf == 48)
        #expect(decision.higherProbeCRF(.av1, choice: top, probes: probes, step: 12) == 60)
        // The scale ends at 63 for SVT-AV1 and 51 for x265; a probe at its end has nowhere higher to go.
        let near = [point(45, 0.9935), point(57, 0.9904)]
        let nearTop = decision.other(.av1, probes: near, h264PredictedSSIMY: 0.9892, step: 12)
        #expect(decision.higherProbeCRF(.av1, choice: nearTop, probes: near, step: 12) == 63)
        let end = [point(51, 0.9935), point(63, 0.9904)]
        #expect(
            decision.higherProbeCRF(
                .av1, choice: decision.other(.av1, probes: end, h264PredictedSSIMY: 0.9892, step: 12),
                probes: end, step: 12) == nil)
        let hevc = [point(25.5, 0.999), point(31.5, 0.998)]
        let hevcTop = decision.other(.hevc, probes: hevc, h264PredictedSSIMY: 0.99, step: 6)
        #expect(decision.higherProbeCRF(.hevc, choice: hevcTop, probes: hevc, step: 6) == 37.5)
        // A choice between the probes, or without two probes, asks for nothing more.
        let between = decision.other(.av1, probes: probes, h264PredictedSSIMY: 0.9930, step: 12)
        #expect(between.crf < 48 && decision.higherProbeCRF(.av1, choice: between, probes: probes, step: 12) == nil)
        #expect(decision.higherProbeCRF(.av1, choice: top, probes: [point(48, 0.9904)], step: 12) == nil)
    }

    @Test func theTopTwoProbesPlaceTheChoiceAboveTheFirstCeiling() {
        // The step above still keeps the target: the choice is there. Past it: between the two.
        let keeps = decision.other(
            .av1, probes: [point(48, 0.9904), point(60, 0.9893)], h264PredictedSSIMY: 0.9892, step: 12)
        #expect(keeps.crf == 60)
        let between = decision.other(
            .av1, probes: [point(48, 0.9904), point(60, 0.9850)], h264PredictedSSIMY: 0.9892, step: 12)
        #expect(between.crf > 48 && between.crf < 60 && between.predictedSSIMY >= 0.9892 - 0.001, "\(between)")
    }

    // MARK: windows

    @Test func windowsAreCentredInEqualPartsOfTheClip() {
        let (starts, seconds) = RateAnalyzer.windows(duration: 30, samples: 3, seconds: 1)
        #expect(starts == [4.5, 14.5, 24.5])
        #expect(seconds == 1)
    }

    @Test func aClipNoLongerThanItsWindowsIsOneWindowOfItAll() {
        #expect(RateAnalyzer.windows(duration: 2.5, samples: 3, seconds: 1) == ([0], 2.5))
        #expect(RateAnalyzer.windows(duration: 3, samples: 3, seconds: 1) == ([0], 3))
    }

    @Test func windowsMoveBackToTheGOPGrid() {
        let (starts, seconds) = RateAnalyzer.windows(duration: 15, samples: 2, seconds: 2, grid: 2)
        #expect(starts == [2, 10] && seconds == 2)
        #expect(RateAnalyzer.windows(duration: 60, samples: 3, seconds: 2, grid: 2).starts == [8, 28, 48])
    }

    @Test func anUnknownLengthSamplesTheStart() {
        #expect(RateAnalyzer.windows(duration: 0, samples: 3, seconds: 1) == ([0], 1))
    }

    @Test(arguments: [3.1, 7.0, 15.0, 16.0, 60.0, 61.5])
    func windowsStayInsideTheClipAndDoNotOverlap(duration: Double) {
        let (starts, seconds) = RateAnalyzer.windows(duration: duration, samples: 3, seconds: 1)
        #expect(starts.count == 3)
        for start in starts { #expect(start >= 0 && start + seconds <= duration) }
        for (a, b) in zip(starts, starts.dropFirst()) { #expect(b >= a + seconds) }
    }

    // MARK: the VBV cap

    @Test func atTheCapTheSSIMIsReadOffTheRateLine() throws {
        // Measured on the hard clip's 720p rung: the clip at its 3000 kb/s cap got 0.9746.
        let probes = [point(21, 0.9761, kbps: 3581), point(29, 0.9671, kbps: 1105)]
        let capped = try #require(RateDecision.ssimYAtCap(probes, maxKbps: 3000))
        #expect(abs(capped - 0.9749) < 0.0001, "\(capped)")
        #expect(RateDecision.ssimYAtCap(probes.reversed(), maxKbps: 3000) == capped)
        // The lower the cap, the lower the quality it keeps, and never above the lower CRF's probe.
        var previous = 1.0
        for cap in stride(from: 3500.0, through: 500, by: -250) {
            let ssim = try #require(RateDecision.ssimYAtCap(probes, maxKbps: cap))
            #expect(ssim < previous && ssim <= 0.9761, "\(cap) kb/s: \(ssim)")
            previous = ssim
        }
        // At the high probe's rate, its own SSIM-Y.
        #expect(abs(try #require(RateDecision.ssimYAtCap(probes, maxKbps: 1105)) - 0.9671) < 1e-9)
    }

    @Test func aCapThatDoesNotBindOrProbesThatCannotDrawALineChangeNothing() {
        #expect(
            RateDecision.ssimYAtCap([point(21, 0.99, kbps: 2500), point(29, 0.98, kbps: 900)], maxKbps: 3000) == nil)
        #expect(RateDecision.ssimYAtCap([point(21, 0.99, kbps: 3500)], maxKbps: 3000) == nil)
        #expect(
            RateDecision.ssimYAtCap([point(21, 0.99, kbps: 3500), point(29, 0.98, kbps: 3600)], maxKbps: 3000) == nil)
        #expect(
            RateDecision.ssimYAtCap([point(21, 0.99, kbps: 3500), point(21, 0.98, kbps: 900)], maxKbps: 3000) == nil)
        #expect(RateDecision.ssimYAtCap([point(21, 0.99, kbps: 3500), point(29, 0.98, kbps: 900)], maxKbps: 0) == nil)
    }

    @Test func anH264RungAtItsCapPredictsTheCappedQualityForTheOtherCodecs() throws {
        let probes = [point(21, 0.9761, kbps: 3581), point(29, 0.9671, kbps: 1105)]
        let free = decision.h264(base: 21, target: 0.988, probes: probes)
        let capped = decision.h264(base: 21, target: 0.988, probes: probes, maxKbps: 3000)
        #expect(capped.crf == free.crf && capped.targetSSIMY == free.targetSSIMY)
        #expect(free.predictedSSIMY == 0.9761)
        #expect(abs(capped.predictedSSIMY - 0.9749) < 0.0001, "\(capped)")
        // A cap far above the probes leaves the prediction as it was.
        #expect(decision.h264(base: 21, target: 0.988, probes: probes, maxKbps: 6000) == free)
        // HEVC aiming at the capped quality takes a higher CRF than at the uncapped one.
        let hevc = [point(22, 0.9776, kbps: 3251), point(28, 0.9725, kbps: 1194)]
        let atCap = decision.other(.hevc, probes: hevc, h264PredictedSSIMY: capped.predictedSSIMY, step: 6)
        let atProbe = decision.other(.hevc, probes: hevc, h264PredictedSSIMY: free.predictedSSIMY, step: 6)
        #expect(atCap.crf > atProbe.crf, "\(atCap) against \(atProbe)")
    }
}
