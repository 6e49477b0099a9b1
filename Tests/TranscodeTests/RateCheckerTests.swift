import Foundation
import TestTraits
import Testing

@testable import Transcode

/// The check of a content-aware ladder against its bounds, and the CRFs it encodes renditions at again (`RateBound`,
/// `RateChecker`, `LadderTranscoder.sampledGOPs`), on renditions whose quality follows made-up curves that cover
/// every branch; `RateCheckLadderTests` runs it on real encodes.
@Suite(.offThePool, .timeLimit(.minutes(5))) struct RateCheckerTests {
    let bound = RateBound(maxDrop: 0.0025)

    /// Distortion 1 − SSIM-Y that grows by `e^slope` a CRF step above `base`, from `atBase`.
    struct Curve {
        var atBase: Double
        var slope: Double
        var base: Double = 21
        func ssimY(_ crf: Double) -> Double { 1 - atBase * exp(slope * (crf - base)) }
    }

    // MARK: the bound

    @Test func theH264ReferenceIsWhatThePartThatLostMostSays() throws {
        let parts = [
            RateBound.Part(ssimY: 0.990, referenceSSIMY: 0.991), RateBound.Part(ssimY: 0.980, referenceSSIMY: 0.984),
        ]
        let reference = try #require(RateBound.h264Reference(ssimY: 0.985, parts: parts))
        #expect(abs(reference - 0.989) < 1e-12)
        #expect(RateBound.h264Reference(ssimY: 0.985, parts: []) == nil)
        // A part that gained (the encode beat its reference there) takes nothing off.
        let gained = RateBound.h264Reference(ssimY: 0.985, parts: [.init(ssimY: 0.99, referenceSSIMY: 0.989)])
        #expect(gained.map { abs($0 - 0.984) < 1e-12 } == true)
    }

    @Test(arguments: [0.02, 0.05, 0.1, 0.2, 0.4], [0.002, 0.006, 0.02])
    func anH264RetryIsTheHighestCRFThePartsLineKeepsInside(slope: Double, atBase: Double) {
        let part = Curve(atBase: atBase, slope: slope)
        for first in stride(from: 21.5, through: 29, by: 0.5) {
            let measured = RateBound.Part(ssimY: part.ssimY(first), referenceSSIMY: part.ssimY(21))
            let retry = bound.h264Retry(base: 21, crf: first, part: measured)
            #expect(retry >= 21 && retry <= first - 0.1 + 1e-9, "from \(first): \(retry)")
            #expect(retry == VideoCodec.h264.crf(onGrid: retry))
            let allowed = bound.maxDrop - RateBound.aim
            // On the part's own line (which the curve is), the retry keeps inside by the aim, and a step higher would
            // not, unless the retry had to stay a step below the first CRF.
            #expect(part.ssimY(21) - part.ssimY(retry) <= allowed + 1e-12, "from \(first): \(retry)")
            if retry < first - 0.1 - 1e-9, retry > 21 {
                #expect(part.ssimY(21) - part.ssimY(retry + 0.1) > allowed, "from \(first): \(retry)")
            }
        }
    }

    @Test func anH264RetryGoesToTheRungsCRFWhenThePartCannotDrawALine() {
        // The part gained, or lost nothing: no slope to follow.
        #expect(bound.h264Retry(base: 21, crf: 25, part: .init(ssimY: 0.99, referenceSSIMY: 0.99)) == 21)
        #expect(bound.h264Retry(base: 21, crf: 25, part: .init(ssimY: 0.995, referenceSSIMY: 0.99)) == 21)
        #expect(bound.h264Retry(base: 21, crf: 21, part: .init(ssimY: 0.98, referenceSSIMY: 0.99)) == 21)
        #expect(
            RateBound(maxDrop: 0.0004).h264Retry(base: 21, crf: 25, part: .init(ssimY: 0.98, referenceSSIMY: 0.99))
                == 21,
            "a bound tighter than the aim leaves only the rung's CRF")
    }

    @Test(arguments: [VideoCodec.hevc, .av1], [0.03, 0.08, 0.15])
    func anotherCodecsRetryReachesItsTargetOnItsLine(codec: VideoCodec, slope: Double) throws {
        let curve = Curve(atBase: 0.01, slope: slope, base: 30)
        for lowest in [0.985, 0.988, 0.99] {
            let first = 34.0
            guard curve.ssimY(first) < lowest else { continue }
            // After one attempt, the probes' slope (here the curve's own) finds the CRF that meets the target.
            let retry = try #require(
                bound.otherRetry(
                    codec, attempts: [(first, curve.ssimY(first))], lowest: lowest, probeSlope: slope, step: 6))
            #expect(retry < first && retry >= first - 6 && retry == codec.crf(onGrid: retry))
            // On the line, unless the target lies more than a step down: then a step down.
            if retry > first - 6 {
                #expect(curve.ssimY(retry) >= lowest + RateBound.aim - 1e-12, "\(codec) \(lowest): \(retry)")
            } else {
                #expect(curve.ssimY(retry + 1) < lowest + RateBound.aim, "\(codec) \(lowest): \(retry)")
            }
            // After two, the line through them; a wrong probe slope does not matter then.
            let second = try #require(
                bound.otherRetry(
                    codec, attempts: [(first, curve.ssimY(first)), (first - 1, curve.ssimY(first - 1))],
                    lowest: lowest, probeSlope: slope * 5, step: 12))
            #expect(curve.ssimY(second) >= lowest + RateBound.aim - 1e-12, "\(codec) \(lowest): \(second)")
            #expect(curve.ssimY(second + 1) < lowest + RateBound.aim || second == first - 2, "\(codec): \(second)")
        }
    }

    @Test func anotherCodecsRetryStepsDownWithoutASlopeAndStopsAtItsScale() {
        #expect(bound.otherRetry(.hevc, attempts: [(30, 0.98)], lowest: 0.99, probeSlope: nil, step: 6) == 27)
        #expect(bound.otherRetry(.av1, attempts: [(40, 0.98)], lowest: 0.99, probeSlope: 0, step: 12) == 34)
        // A line that says much further is followed a step at most.
        #expect(bound.otherRetry(.av1, attempts: [(43, 0.987)], lowest: 0.991, probeSlope: 0.03, step: 12) == 31)
        // Always at least a step down, even when the line says a hair.
        #expect(bound.otherRetry(.hevc, attempts: [(30, 0.98)], lowest: 0.97, probeSlope: 0.1, step: 6) == 29.9)
        #expect(bound.otherRetry(.av1, attempts: [(2, 0.98)], lowest: 0.99, probeSlope: 0.1, step: 12) == 1)
        #expect(bound.otherRetry(.av1, attempts: [(1, 0.98)], lowest: 0.99, probeSlope: 0.1, step: 12) == nil)
        #expect(bound.otherRetry(.hevc, attempts: [], lowest: 0.99, probeSlope: 0.1, step: 6) == nil)
    }

    // MARK: the sample

    @Test(arguments: [1, 2, 5, 8, 15, 30])
    func theSampleIsWholeGOPsOutsideTheWindowsSpreadOverTheClip(gops: Int) {
        let keyint = 30
        let slots = Int64(gops * keyint - 7)  // the last GOP is short
        let windows: [Range<Int64>] =
            gops >= 4 ? [30..<90, Int64(gops / 2 * keyint)..<Int64(gops / 2 * keyint + 60)] : []
        let sample = LadderTranscoder.sampledGOPs(slots: slots, keyframeInterval: keyint, windows: windows)
        #expect(!sample.isEmpty)
        for gop in sample {
            #expect(gop.lowerBound % Int64(keyint) == 0 && gop.upperBound <= slots)
            #expect(gop.count == keyint || gop.upperBound == slots)
            #expect(!windows.contains { $0.overlaps(gop) }, "\(gop) is in a window")
        }
        let free = (0..<gops).filter { gop in
            !windows.contains { $0.overlaps(Int64(gop * keyint)..<Int64((gop + 1) * keyint)) }
        }.count
        // A third of the GOPs left (rounded), at least one.
        #expect(sample.count == max(1, free / 3 + (free % 3 == 2 ? 1 : 0)), "\(sample) of \(free)")
    }

    // MARK: the loop

    /// A ladder rendition whose every part follows its own curve, and whose clip follows `clip`, or is the parts'
    /// mean (parts of equal length).
    struct Model {
        var codec: VideoCodec
        var rung: String
        var crf: Double
        var parts: [Curve]
        var clip: Curve?

        func ssimY(_ crf: Double) -> Double {
            clip?.ssimY(crf) ?? parts.map { $0.ssimY(crf) }.reduce(0, +) / Double(parts.count)
        }

        func measured(_ crf: Double) -> RateChecker.Measured {
            RateChecker.Measured(
                ssimY: ssimY(crf),
                parts: codec == .h264 && crf > 21
                    ? parts.map { .init(ssimY: $0.ssimY(crf), referenceSSIMY: $0.ssimY(21)) } : [])
        }
    }

    /// Runs the checker over `models`, encoding them again from the models; returns what it found and every batch.
    func check(_ models: [String: Model]) throws -> (RateCheckerResult, [[String: Double]]) {
        let subjects = models.sorted { $0.key < $1.key }.map { id, model in
            RateChecker.Subject(
                id: id, rung: model.rung, codec: model.codec, crf: model.crf, baseCRF: 21,
                probeSlope: model.codec == .h264 ? nil : model.clip?.slope,
                probeStep: model.codec == .av1 ? 12 : 6)
        }
        var batches: [[String: Double]] = []
        let result = try RateChecker(bound: bound).run(
            subjects, measured: models.mapValues { $0.measured($0.crf) }
        ) { crfs in
            batches.append(crfs)
            return Dictionary(uniqueKeysWithValues: crfs.map { ($0.key, models[$0.key]!.measured($0.value)) })
        }
        return (RateCheckerResult(renditions: result.renditions, passes: result.passes), batches)
    }

    struct RateCheckerResult {
        var renditions: [RateCheck.Rendition]
        var passes: Int
        func rendition(_ id: String) -> RateCheck.Rendition? { renditions.first { $0.id == id } }
    }

    @Test func aLadderInsideItsBoundsIsNotEncodedAgain() throws {
        let models = [
            "720p": Model(
                codec: .h264, rung: "720p", crf: 23, parts: [Curve(atBase: 0.008, slope: 0.1)],
                clip: Curve(atBase: 0.008, slope: 0.1)),
            "720p-hevc": Model(
                codec: .hevc, rung: "720p", crf: 27, parts: [], clip: Curve(atBase: 0.0095, slope: 0.08, base: 27)),
            "1080p": Model(codec: .h264, rung: "1080p", crf: 21, parts: [], clip: Curve(atBase: 0.006, slope: 0.1)),
        ]
        let (result, batches) = try check(models)
        #expect(batches.isEmpty && result.passes == 0)
        #expect(result.renditions.allSatisfy { $0.inside && $0.attempts.count == 1 })
        #expect(result.rendition("1080p")?.reference == .ownCRF && result.rendition("720p")?.reference == .rungCRF)
        #expect(result.rendition("720p-hevc")?.reference == .h264)
    }

    /// Over a grid of clips whose sampled part is harder than the rest, or easier, and other codecs that fall short
    /// of their H.264: the check ends with every rendition inside (as the models say, the truth here) in at most
    /// `maxPasses` passes; H.264 is encoded again at most twice, the second time at the rung's CRF; another codec is
    /// never encoded in the pass that changes its H.264; nothing inside at first is encoded again.
    @Test(arguments: [0.03, 0.08, 0.15], [0.6, 1.0, 1.8])
    func everyRenditionEndsInsideItsBound(slope: Double, hardness: Double) throws {
        for first in stride(from: 22.0, through: 29, by: 1) {
            for shortfall in [0.0, 0.001, 0.004, 0.01] {
                let easy = Curve(atBase: 0.006, slope: slope)
                let hard = Curve(atBase: 0.006 * hardness, slope: slope * hardness)
                // The clip is both parts, equally.
                let h264 = Model(codec: .h264, rung: "720p", crf: first, parts: [easy, hard])
                let target = h264.ssimY(first) - RateBound.codecDrop - shortfall
                let av1 = Model(
                    codec: .av1, rung: "720p", crf: 40, parts: [],
                    clip: Curve(atBase: 1 - target, slope: 0.06, base: 40))
                let (result, batches) = try check(["720p": h264, "720p-av1": av1])
                let label = "slope \(slope), hardness \(hardness), CRF \(first), short by \(shortfall)"
                #expect(result.passes <= RateChecker.maxPasses && result.passes == batches.count, "\(label)")
                let published = try #require(result.rendition("720p")?.attempts.last)
                let published264 = h264.ssimY(published.crf)
                #expect(h264.ssimY(21) - published264 <= bound.maxDrop + 1e-12, "\(label): H.264 at \(published.crf)")
                let av1Published = try #require(result.rendition("720p-av1")?.attempts.last)
                #expect(av1.ssimY(av1Published.crf) >= published264 - RateBound.codecDrop - 1e-12, "\(label)")
                #expect(result.renditions.allSatisfy { $0.inside }, "\(label)")
                let h264Attempts = try #require(result.rendition("720p")?.attempts)
                #expect(h264Attempts.count <= 3, "\(label)")
                if h264Attempts.count == 3 { #expect(h264Attempts[2].crf == 21, "\(label)") }
                for batch in batches { #expect(!(batch["720p"] != nil && batch["720p-av1"] != nil), "\(label)") }
                if h264Attempts[0].inside { #expect(h264Attempts.count == 1, "\(label)") }
            }
        }
    }

    @Test func anH264RenditionAboveItsCRFWithNoPartMeasuredGoesBackToIt() throws {
        let models = [
            "360p": Model(codec: .h264, rung: "360p", crf: 25, parts: [], clip: Curve(atBase: 0.01, slope: 0.1))
        ]
        let (result, batches) = try check(models)
        #expect(batches == [["360p": 21]])
        let attempts = try #require(result.rendition("360p")?.attempts)
        #expect(attempts.count == 2 && !attempts[0].inside && attempts[1].inside && attempts[1].crf == 21)
    }
}
