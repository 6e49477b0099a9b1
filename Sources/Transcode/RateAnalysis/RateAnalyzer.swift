internal import FileSystem
internal import Foundation

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

    /// The plan with every rendition's CRF chosen for this clip, and what the analysis measured and chose.
    ///
    /// An H.264-only ladder first probes the rung nearest 720p over the first second of the first window. When that
    /// shows no headroom, the analysis stops there and every rung keeps its CRF: on a clip with nothing to save, the
    /// full analysis had cost 1.31x the plain ladder's CPU. Otherwise every rung is probed over every window.
    func run(plan: LadderPlan, probe: RateProbe) throws -> (LadderPlan, RateAnalysis) {
        let startedCPU = ThreadCPU.processSeconds()
        let started = Date()
        let decision = RateDecision(settings: settings)
        var plan = plan
        var renditions: [RateAnalysis.Rendition] = []
        let others = plan.codecs.filter { $0 != .h264 }
        let probed = Self.probedRung(plan)
        let h264Choice = { (index: Int, points: [RateProbePoint]) in
            decision.h264(
                base: plan.rungs[index].crf, target: preset.rungs.first { $0.id == plan.rungs[index].id }?.targetSSIMY,
                probes: points, maxKbps: Double(plan.rungs[index].maxBitrateKbps))
        }
        let analysis = { (first: RateAnalysis.FirstProbes?) in
            RateAnalysis(
                windowStarts: probe.windowStarts, windowSeconds: probe.windowSeconds,
                cpuSeconds: ThreadCPU.processSeconds() - startedCPU, elapsedSeconds: Date().timeIntervalSince(started),
                renditions: renditions, firstProbes: first)
        }

        var first: RateAnalysis.FirstProbes?
        var known: [Int: [RateProbePoint]] = [:]
        if others.isEmpty, !probe.windowStarts.isEmpty {
            let encodes = decision.h264ProbeCRFs(base: plan.rungs[probed].crf).map {
                RateProbe.Encode(rung: probed, codec: .h264, crf: $0)
            }
            let points = try probe.measure(encodes, windows: 0..<1, seconds: Self.firstProbeSeconds)
            let stopped = decision.stopReason(
                base: plan.rungs[probed].crf, choice: h264Choice(probed, points), probes: points)
            first = RateAnalysis.FirstProbes(
                rung: plan.rungs[probed].id, windowStart: probe.windowStarts[0],
                seconds: min(Self.firstProbeSeconds, probe.windowSeconds), probes: points, stopped: stopped)
            if stopped != nil {
                // Every rung keeps its CRF and no target: the ladder is the plain one.
                renditions = plan.rungs.map { rung in
                    RateAnalysis.Rendition(
                        id: VideoCodec.h264.renditionID(rung: rung.id), rung: rung.id, videoCodec: .h264,
                        crf: rung.crf, targetSSIMY: nil, predictedSSIMY: nil, probes: [])
                }
                return (plan, analysis(first))
            }
            // One window, all of it probed, is the whole analysis of a short clip: its points stand.
            if probe.windowStarts.count == 1, Self.firstProbeSeconds >= probe.windowSeconds { known[probed] = points }
        }

        let h264Encodes = plan.rungs.indices.filter { known[$0] == nil }.flatMap { index in
            decision.h264ProbeCRFs(base: plan.rungs[index].crf).map {
                RateProbe.Encode(rung: index, codec: .h264, crf: $0)
            }
        }
        let h264Points = h264Encodes.isEmpty ? [] : try probe.measure(h264Encodes)
        var h264Predicted: [Double] = []
        for index in plan.rungs.indices {
            let points =
                known[index] ?? zip(h264Encodes, h264Points).filter { $0.0.rung == index }.map(\.1)
            let choice = h264Choice(index, points)
            plan.rungs[index].setCRF(choice.crf, for: .h264)
            plan.rungs[index].targetSSIMY[.h264] = choice.targetSSIMY
            h264Predicted.append(choice.predictedSSIMY)
            renditions.append(Self.record(choice, rung: plan.rungs[index].id, codec: .h264, probes: points))
        }

        // The other codecs are probed on one rung, the one nearest 720p, in one pass over the windows (they depend
        // only on the H.264 choice); each other rung takes the same distance from its H.264 CRF. Probing every rung
        // of HEVC and AV1 cost as much as a third of the ladder's own encode.
        let encodes = others.flatMap { codec in
            let (offset, step) = preset.offsetAndProbeStep(codec)
            return decision.probeCRFs(codec, h264CRF: plan.rungs[probed].crf, offset: offset, step: step)
                .map { RateProbe.Encode(rung: probed, codec: codec, crf: $0) }
        }
        let points = encodes.isEmpty ? [] : try probe.measure(encodes)
        var probes = Dictionary(grouping: zip(encodes, points), by: { $0.0.codec }).mapValues { $0.map(\.1) }
        // The choice is read between a codec's top two probes. When it is the higher one, the target may hold higher
        // still (an easy clip): every such codec is probed once more a step above, in one more pass.
        let choose = { (codec: VideoCodec) in
            decision.other(
                codec, probes: Array((probes[codec] ?? []).suffix(2)), h264PredictedSSIMY: h264Predicted[probed],
                step: preset.offsetAndProbeStep(codec).step)
        }
        let higher = others.compactMap { codec in
            decision.higherProbeCRF(
                codec, choice: choose(codec), probes: probes[codec] ?? [], step: preset.offsetAndProbeStep(codec).step
            )
            .map { RateProbe.Encode(rung: probed, codec: codec, crf: $0) }
        }
        if !higher.isEmpty {
            for (encode, point) in zip(higher, try probe.measure(higher)) {
                probes[encode.codec, default: []].append(point)
            }
        }
        for codec in others {
            let own = probes[codec] ?? []
            let choice = choose(codec)
            let distance = choice.crf - plan.rungs[probed].crf
            for index in plan.rungs.indices {
                let target = h264Predicted[index] - settings.codecSSIMMargin
                let crf = index == probed ? choice.crf : codec.crf(onGrid: plan.rungs[index].crf + distance)
                plan.rungs[index].setCRF(crf, for: codec)
                plan.rungs[index].targetSSIMY[codec] = target
                renditions.append(
                    RateAnalysis.Rendition(
                        id: codec.renditionID(rung: plan.rungs[index].id), rung: plan.rungs[index].id,
                        videoCodec: codec, crf: crf,
                        targetSSIMY: target, predictedSSIMY: index == probed ? choice.predictedSSIMY : nil,
                        probes: index == probed ? own : []))
            }
        }
        return (plan, analysis(first))
    }

    /// How much of the first window the first probes encode: half a GOP of the default ladder. Over the whole 2 s
    /// window they cost 13-15 % of the plain ladder's CPU on clips where they stopped the analysis (a slow zoom over a
    /// photo, noise), past the 10 % allowed; the encodes are nearly all of it.
    static let firstProbeSeconds = 1.0

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
