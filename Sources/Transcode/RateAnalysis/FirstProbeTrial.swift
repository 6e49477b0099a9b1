internal import FileSystem
internal import Foundation
internal import LibAV

/// The first probes of an H.264-only content-aware ladder, made inside the ladder's own encode: the rung nearest 720p
/// is read back over its first second (the point at the rung's CRF), and one more encoder takes the same pictures at
/// the highest CRF the rung may rise to (the other point). Neither encoder is flushed: each point is read once its
/// encoder has given back those pictures, coded alike with the pictures after them in its lookahead. When they show no headroom the ladder carries on as the plain one, having
/// paid for one short encode and two read-backs; otherwise it is started again at the CRFs the full analysis
/// chooses. As two encodes of their own, with their own decode and scaling, the first probes cost 0.8-3.8 CPU s on
/// 10 s clips whose plain ladder took about 23, past the 10 % allowed on three of them (docs/benchmarks.md).
/// `@unchecked Sendable`: immutable but for its `ProbeEncoder`, which only its rung's task of `emit` feeds.
final class FirstProbeTrial: @unchecked Sendable {
    /// The rung's index in the plan, and how many of its first pictures the probes read.
    let rung: Int
    let frames: Int64
    let baseCRF: Double
    let higherCRF: Double
    private let higher: ProbeEncoder
    private let frameRate: Double
    /// Why the two points show no headroom; nil: they show some, and the ladder starts again.
    let verdict: ([RateProbePoint]) -> RateAnalysis.StopReason?

    /// - Parameter crfs: the rung's own CRF and the higher one, as `RateDecision.h264ProbeCRFs` gives them.
    init(
        plan: LadderPlan, preset: LadderPreset, color: ColorDescription, threads: Int, rung: Int, crfs: [Double],
        seconds: Double, verdict: @escaping ([RateProbePoint]) -> RateAnalysis.StopReason?
    ) throws(AVError) {
        self.rung = rung
        frameRate = plan.frameRateValue
        frames = max(1, Int64((seconds * frameRate).rounded()))
        baseCRF = crfs.min() ?? plan.rungs[rung].crf
        higherCRF = crfs.max() ?? plan.rungs[rung].crf
        var probed = plan.rungs[rung]
        probed.setCRF(higherCRF, for: .h264)
        higher = try ProbeEncoder(
            RungOutput.videoSettings(.h264, rung: probed, plan: plan, preset: preset, color: color, threads: threads),
            pools: [[0..<frames]], limit: frames)
        self.verdict = verdict
    }

    /// The slots both points pool, as a read-back's `pools` entry.
    var pool: [Range<Int64>] { [0..<frames] }

    /// Gives the higher-CRF encoder the rung's picture for `slot`, as the ladder's encoder gets it, until it has
    /// given back every picture the probes read.
    func encode(_ picture: Frame, slot: Int64, keyframe: Bool) throws(AVError) {
        guard !higher.meter.isDone else { return }
        try higher.encode(picture, slot: slot, keyframe: keyframe)
    }

    /// The two points, at the rung's CRF and the higher one, once both read-backs have their pictures; nil before.
    /// `ladder` is the rung's H.264 rendition's read-back, whose last pool is `pool`.
    func points(ladder: RenditionMeter) -> [RateProbePoint]? {
        guard let read = ladder.pooledPictures.last, Int64(read) >= frames, higher.meter.isDone else { return nil }
        return measured(ladder: ladder)
    }

    /// The points from whatever both read, at the end of a clip shorter than the trial: the higher encoder is flushed
    /// (the ladder's has been).
    func finish(ladder: RenditionMeter) throws(AVError) -> [RateProbePoint] {
        _ = try higher.finish()
        return measured(ladder: ladder)
    }

    /// CPU seconds the trial added to the ladder: the higher encoder and its read-back, and the rung's read-back when
    /// the ladder would not have read it anyway (`ownsLadderMeter`).
    func cpuSeconds(ladder: RenditionMeter, ownsLadderMeter: Bool) -> Double {
        higher.cpuSeconds() + higher.meter.cpuSeconds + (ownsLadderMeter ? ladder.cpuSeconds : 0)
    }

    private func measured(ladder: RenditionMeter) -> [RateProbePoint] {
        [
            point(ladder, crf: baseCRF, encodeCPUSeconds: nil),
            point(higher.meter, crf: higherCRF, encodeCPUSeconds: higher.cpuSeconds()),
        ]
    }

    private func point(_ meter: RenditionMeter, crf: Double, encodeCPUSeconds: Double?) -> RateProbePoint {
        let pictures = meter.pooledPictures.last ?? 0
        let bytes = meter.pooledBytes.last ?? 0
        return RateProbePoint(
            crf: crf, ssimY: meter.pooled.last?.mean ?? 0,
            kilobitsPerSecond: pictures == 0 ? 0 : Double(bytes * 8) / (Double(pictures) / frameRate) / 1000,
            encodeCPUSeconds: encodeCPUSeconds)
    }
}
