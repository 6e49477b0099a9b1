/// Holds every rendition of a content-aware ladder against its bound (`RateBound`) once it is encoded, and has the
/// ones outside encoded again, pass after pass, until all are inside or none can move. H.264 goes first: an HEVC or
/// AV1 rendition is held against its rung's H.264, so it waits while that one is encoded again. Pure: `reencode`
/// encodes and measures.
struct RateChecker {
    /// A rendition as the analysis set it up.
    struct Subject: Sendable {
        var id: String
        var rung: String
        var codec: VideoCodec
        var crf: Double
        /// H.264: the rung's own CRF.
        var baseCRF: Double
        /// HEVC and AV1: d log(1 − SSIM-Y) / d CRF between their probes, and the probes' CRF step.
        var probeSlope: Double?
        var probeStep: Int
    }

    /// What one encode of a rendition measured: over the clip, and for H.264 above its rung's CRF, over the parts
    /// where that CRF was measured too.
    struct Measured: Sendable, Equatable {
        var ssimY: Double
        var parts: [RateBound.Part] = []
    }

    /// The most times the clip is read again. H.264 settles in two (a corrected CRF, then its own), and each other
    /// codec follows its rung's H.264 by a pass.
    static let maxPasses = 4

    let bound: RateBound

    /// - Parameters:
    ///   - measured: each subject's first encode, by id.
    ///   - reencode: encodes the renditions given (id: CRF) again, replacing them, and returns what they measured.
    func run(
        _ subjects: [Subject], measured first: [String: Measured],
        reencode: ([String: Double]) throws -> [String: Measured]
    ) throws -> (renditions: [RateCheck.Rendition], passes: Int) {
        var encodes: [String: [(crf: Double, measured: Measured)]] = [:]
        for subject in subjects {
            guard let measured = first[subject.id] else { continue }
            encodes[subject.id] = [(subject.crf, measured)]
        }
        var passes = 0
        while passes < Self.maxPasses {
            let verdicts = evaluate(subjects, encodes)
            let outside = subjects.filter { verdicts[$0.id]?.last?.inside == false }
            let moving = Set(outside.filter { $0.codec == .h264 }.map(\.rung))
            var again: [String: Double] = [:]
            for subject in outside {
                guard let history = encodes[subject.id], let last = history.last else { continue }
                if subject.codec == .h264 {
                    guard last.crf > subject.baseCRF else { continue }
                    // A second miss, or one no part can correct, goes to the rung's own CRF: inside by
                    // definition.
                    if history.count == 1, let worst = last.measured.parts.max(by: { $0.drop < $1.drop }) {
                        again[subject.id] = bound.h264Retry(base: subject.baseCRF, crf: last.crf, part: worst)
                    } else {
                        again[subject.id] = subject.baseCRF
                    }
                } else if !moving.contains(subject.rung), let lowest = verdicts[subject.id]?.last?.lowestSSIMY,
                    let crf = bound.otherRetry(
                        subject.codec, attempts: history.map { ($0.crf, $0.measured.ssimY) }, lowest: lowest,
                        probeSlope: subject.probeSlope, step: subject.probeStep)
                {
                    again[subject.id] = crf
                }
            }
            guard !again.isEmpty else { break }
            let measured = try reencode(again)
            passes += 1
            for (id, crf) in again {
                guard let result = measured[id] else { continue }
                encodes[id, default: []].append((crf, result))
            }
        }
        let verdicts = evaluate(subjects, encodes)
        let renditions = subjects.compactMap { subject -> RateCheck.Rendition? in
            guard let attempts = verdicts[subject.id] else { return nil }
            return RateCheck.Rendition(
                id: subject.id, rung: subject.rung, videoCodec: subject.codec,
                reference: reference(subject, crf: encodes[subject.id]?.last?.crf ?? subject.crf), attempts: attempts)
        }
        return (renditions, passes)
    }

    private func reference(_ subject: Subject, crf: Double) -> RateCheck.Reference {
        subject.codec != .h264 ? .h264 : crf > subject.baseCRF ? .rungCRF : .ownCRF
    }

    /// Every encode of every subject held against its reference; HEVC and AV1 against the rung's H.264 as it is now.
    /// An H.264 rendition above its rung's CRF with no part measured has no reference: it is held against a perfect
    /// picture, so that only its own CRF passes.
    private func evaluate(
        _ subjects: [Subject], _ encodes: [String: [(crf: Double, measured: Measured)]]
    ) -> [String: [RateCheck.Attempt]] {
        var h264: [String: Double] = [:]
        var verdicts: [String: [RateCheck.Attempt]] = [:]
        for subject in subjects where subject.codec == .h264 {
            guard let history = encodes[subject.id] else { continue }
            verdicts[subject.id] = history.map { crf, measured in
                guard crf > subject.baseCRF else {
                    return RateCheck.Attempt(
                        crf: crf, ssimY: measured.ssimY, referenceSSIMY: measured.ssimY,
                        lowestSSIMY: measured.ssimY - bound.maxDrop)
                }
                guard let referenceSSIMY = RateBound.h264Reference(ssimY: measured.ssimY, parts: measured.parts) else {
                    return RateCheck.Attempt(crf: crf, ssimY: measured.ssimY, referenceSSIMY: 1, lowestSSIMY: 1)
                }
                return RateCheck.Attempt(
                    crf: crf, ssimY: measured.ssimY, referenceSSIMY: referenceSSIMY,
                    lowestSSIMY: referenceSSIMY - bound.maxDrop)
            }
            h264[subject.rung] = history.last?.measured.ssimY
        }
        for subject in subjects where subject.codec != .h264 {
            guard let history = encodes[subject.id], let reference = h264[subject.rung] else { continue }
            verdicts[subject.id] = history.map { crf, measured in
                RateCheck.Attempt(
                    crf: crf, ssimY: measured.ssimY, referenceSSIMY: reference,
                    lowestSSIMY: reference - RateBound.codecDrop)
            }
        }
        return verdicts
    }
}
