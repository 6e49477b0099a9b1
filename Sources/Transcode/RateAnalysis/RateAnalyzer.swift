internal import FileSystem
internal import Foundation
internal import LibAV

/// Content-aware rates for one clip: probes its sampled windows per rung, H.264 first, then each other codec around
/// the H.264 choice, and sets every rendition's CRF in the plan (`RateDecision` chooses; `RateProbe` measures).
struct RateAnalyzer {
    let preset: LadderPreset
    var settings: LadderPreset.ContentAware { preset.contentAware }

    /// Where the windows start and how long each is: `samples` windows, each centred in an equal part of the clip
    /// and moved back to the ladder's GOP grid (`grid` seconds), so that a window of whole GOPs is coded as the ladder
    /// codes them, from its IDR; a clip no longer than all of them together is one window, the whole clip. An unknown
    /// length (0) samples the start.
    static func windows(
        duration: Double, samples: Int, seconds: Double, grid: Double = 0
    ) -> (starts: [Double], seconds: Double) {
        guard duration > 0 else { return ([0], seconds) }
        guard duration > Double(samples) * seconds else { return ([0], duration) }
        let part = duration / Double(samples)
        let starts = (0..<samples).map { index in
            let centred = min(max(0, part * (Double(index) + 0.5) - seconds / 2), duration - seconds)
            return grid > 0 ? (centred / grid).rounded(.down) * grid : centred
        }
        return (starts, seconds)
    }

    /// The first probes of an H.264-only ladder, to run inside its encode (`FirstProbeTrial`): the rung nearest
    /// 720p over the first second, at its CRF and `max_crf_raise` above. nil for a ladder with other codecs: they aim
    /// at every rung's H.264 quality, which only the full analysis predicts.
    func firstProbeTrial(plan: LadderPlan, color: ColorDescription, threads: Int) throws -> FirstProbeTrial? {
        guard plan.codecs == [.h264] else { return nil }
        let decision = RateDecision(settings: settings)
        let probed = Self.probedRung(plan)
        let base = plan.rungs[probed].crf
        return try FirstProbeTrial(
            plan: plan, preset: preset, color: color, threads: threads, rung: probed,
            crfs: decision.h264ProbeCRFs(base: base), seconds: Self.firstProbeSeconds
        ) { points in
            decision.stopReason(base: base, choice: h264Choice(plan, rung: probed, points: points), probes: points)
        }
    }

    /// What the analysis was when the first probes stopped it: every rung at its CRF, with no target.
    func stopped(
        plan: LadderPlan, duration: Double, first: RateAnalysis.FirstProbes, elapsedSeconds: Double
    )
        -> RateAnalysis
    {
        let windows = Self.windows(
            duration: duration, samples: settings.samples, seconds: settings.sampleSeconds,
            grid: preset.keyframeIntervalSeconds)
        return RateAnalysis(
            windowStarts: windows.starts, windowSeconds: windows.seconds, cpuSeconds: first.cpuSeconds,
            elapsedSeconds: elapsedSeconds,
            renditions: plan.rungs.map { rung in
                RateAnalysis.Rendition(
                    id: VideoCodec.h264.renditionID(rung: rung.id), rung: rung.id, videoCodec: .h264,
                    crf: rung.crf, targetSSIMY: nil, predictedSSIMY: nil, probes: [])
            }, firstProbes: first)
    }

    private func h264Choice(_ plan: LadderPlan, rung index: Int, points: [RateProbePoint]) -> RateDecision.Choice {
        RateDecision(settings: settings).h264(
            base: plan.rungs[index].crf, target: preset.rungs.first { $0.id == plan.rungs[index].id }?.targetSSIMY,
            probes: points, maxKbps: Double(plan.rungs[index].maxBitrateKbps))
    }

    /// The plan with every rendition's CRF chosen for this clip, and what the analysis measured and chose. `first`:
    /// the first probes, which found headroom (an H.264-only ladder); the analysis probes every rung and window.
    func run(plan: LadderPlan, probe: RateProbe, first: RateAnalysis.FirstProbes?) throws -> (LadderPlan, RateAnalysis)
    {
        let startedCPU = ThreadCPU.processSeconds()
        let started = Date()
        let decision = RateDecision(settings: settings)
        var plan = plan
        var renditions: [RateAnalysis.Rendition] = []
        let others = plan.codecs.filter { $0 != .h264 }
        let probed = Self.probedRung(plan)
        let analysis = {
            RateAnalysis(
                windowStarts: probe.windowStarts, windowSeconds: probe.windowSeconds,
                cpuSeconds: ThreadCPU.processSeconds() - startedCPU + (first?.cpuSeconds ?? 0),
                elapsedSeconds: Date().timeIntervalSince(started), renditions: renditions, firstProbes: first)
        }

        let h264Encodes = plan.rungs.indices.flatMap { index in
            decision.h264ProbeCRFs(base: plan.rungs[index].crf).map {
                RateProbe.Encode(rung: index, codec: .h264, crf: $0)
            }
        }
        let h264Points = h264Encodes.isEmpty ? [] : try probe.measure(h264Encodes)
        var h264Predicted: [Double] = []
        for index in plan.rungs.indices {
            let points = zip(h264Encodes, h264Points).filter { $0.0.rung == index }.map(\.1)
            let choice = h264Choice(plan, rung: index, points: points)
            plan.rungs[index].setCRF(choice.crf, for: .h264)
            plan.rungs[index].targetSSIMY[.h264] = choice.targetSSIMY
            h264Predicted.append(choice.predictedSSIMY)
            renditions.append(Self.record(choice, rung: plan.rungs[index].id, codec: .h264, probes: points))
        }

        // The other codecs are probed on one rung, the one nearest 720p, in one pass over the windows (they depend
        // only on the H.264 choice); each other rung takes the same distance from its H.264 CRF. Probing every rung
        // of HEVC and AV1 cost as much as a third of the ladder's own encode. A rung whose H.264 probes hit its VBV
        // cap where the probed rung's did not is probed too: there the distance does not hold (on testsrc2, AV1's
        // 1080p came out 0.006 below its H.264 at 720p's distance).
        let rungs = [probed] + Self.cappedRungs(plan, probes: renditions, besides: probed)
        let encodes = others.flatMap { codec in
            let (offset, step) = preset.offsetAndProbeStep(codec)
            return rungs.flatMap { rung in
                decision.probeCRFs(codec, h264CRF: plan.rungs[rung].crf, offset: offset, step: step)
                    .map { RateProbe.Encode(rung: rung, codec: codec, crf: $0) }
            }
        }
        let points = encodes.isEmpty ? [] : try probe.measure(encodes)
        struct Key: Hashable {
            var rung: Int
            var codec: VideoCodec
        }
        var probes = Dictionary(grouping: zip(encodes, points), by: { Key(rung: $0.0.rung, codec: $0.0.codec) })
            .mapValues { $0.map(\.1) }
        // The choice is read between a codec's top two probes. When it is the higher one, the target may hold higher
        // still (an easy clip): every such codec is probed once more a step above, in one more pass.
        let choose = { (key: Key) in
            decision.other(
                key.codec, probes: Array((probes[key] ?? []).suffix(2)), h264PredictedSSIMY: h264Predicted[key.rung],
                step: preset.offsetAndProbeStep(key.codec).step)
        }
        let keys = others.flatMap { codec in rungs.map { Key(rung: $0, codec: codec) } }
        let higher = keys.compactMap { key in
            decision.higherProbeCRF(
                key.codec, choice: choose(key), probes: probes[key] ?? [],
                step: preset.offsetAndProbeStep(key.codec).step
            )
            .map { RateProbe.Encode(rung: key.rung, codec: key.codec, crf: $0) }
        }
        if !higher.isEmpty {
            for (encode, point) in zip(higher, try probe.measure(higher)) {
                probes[Key(rung: encode.rung, codec: encode.codec), default: []].append(point)
            }
        }
        for codec in others {
            let distance = choose(Key(rung: probed, codec: codec)).crf - plan.rungs[probed].crf
            for index in plan.rungs.indices {
                let target = h264Predicted[index] - settings.codecSSIMMargin
                let key = Key(rung: index, codec: codec)
                let own = rungs.contains(index) ? choose(key) : nil
                let crf = own?.crf ?? codec.crf(onGrid: plan.rungs[index].crf + distance)
                plan.rungs[index].setCRF(crf, for: codec)
                plan.rungs[index].targetSSIMY[codec] = target
                renditions.append(
                    RateAnalysis.Rendition(
                        id: codec.renditionID(rung: plan.rungs[index].id), rung: plan.rungs[index].id,
                        videoCodec: codec, crf: crf, targetSSIMY: target, predictedSSIMY: own?.predictedSSIMY,
                        probes: own == nil ? [] : probes[key] ?? []))
            }
        }
        return (plan, analysis())
    }

    /// How much of the clip the first probes read: half a GOP of the default ladder. Over a whole 2 s window they
    /// cost 13-15 % of the plain ladder's CPU on clips where they stopped the analysis (a slow zoom over a photo,
    /// noise), past the 10 % allowed; the encodes were nearly all of it. Over 0.5 s a 10 fps source shows too few
    /// pictures to tell (docs/benchmarks.md).
    static let firstProbeSeconds = 1.0

    /// The rungs besides `probed` whose H.264 probe at their own CRF spent more than their VBV cap, when `probed`'s
    /// did not: the cap, not the CRF, sets their quality, so another codec's CRF distance from H.264 there is its own.
    static func cappedRungs(_ plan: LadderPlan, probes: [RateAnalysis.Rendition], besides probed: Int) -> [Int] {
        func capped(_ index: Int) -> Bool {
            let rung = plan.rungs[index]
            guard let chosen = probes.first(where: { $0.rung == rung.id && $0.videoCodec == .h264 }),
                let atBase = chosen.probes.min(by: { $0.crf < $1.crf })
            else { return false }
            return atBase.kilobitsPerSecond > Double(rung.maxBitrateKbps)
        }
        guard !capped(probed) else { return [] }
        return plan.rungs.indices.filter { $0 != probed && capped($0) }
    }

    /// The rung whose probes stand for the others': the one nearest 720p.
    static func probedRung(_ plan: LadderPlan) -> Int {
        plan.rungs.indices.min {
            abs(Self.shortSide(plan.rungs[$0]) - 720) < abs(Self.shortSide(plan.rungs[$1]) - 720)
        } ?? 0
    }

    private static func shortSide(_ rung: LadderPlan.Rung) -> Int { min(rung.width, rung.height) }

    private static func record(
        _ choice: RateDecision.Choice, rung: String, codec: VideoCodec,
        probes: [RateProbePoint]
    ) -> RateAnalysis.Rendition {
        RateAnalysis.Rendition(
            id: codec.renditionID(rung: rung), rung: rung, videoCodec: codec, crf: choice.crf,
            targetSSIMY: choice.targetSSIMY, predictedSSIMY: choice.predictedSSIMY, probes: probes)
    }
}
