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
    func run(plan: LadderPlan, probe: RateProbe) throws -> (LadderPlan, RateAnalysis) {
        let startedCPU = ThreadCPU.processSeconds()
        let started = Date()
        let decision = RateDecision(settings: settings)
        var plan = plan
        var renditions: [RateAnalysis.Rendition] = []

        let h264Encodes = plan.rungs.indices.flatMap { index in
            decision.h264ProbeCRFs(base: plan.rungs[index].crf).map {
                RateProbe.Encode(rung: index, codec: .h264, crf: $0)
            }
        }
        let h264Points = try probe.measure(h264Encodes)
        var h264Predicted: [Double] = []
        for index in plan.rungs.indices {
            let points = zip(h264Encodes, h264Points).filter { $0.0.rung == index }.map(\.1)
            let template = preset.rungs.first { $0.id == plan.rungs[index].id }
            let choice = decision.h264(
                base: plan.rungs[index].crf, target: template?.targetSSIMY, probes: points,
                maxKbps: Double(plan.rungs[index].maxBitrateKbps))
            plan.rungs[index].setCRF(choice.crf, for: .h264)
            plan.rungs[index].targetSSIMY[.h264] = choice.targetSSIMY
            h264Predicted.append(choice.predictedSSIMY)
            renditions.append(Self.record(choice, rung: plan.rungs[index].id, codec: .h264, probes: points))
        }

        // The other codecs are probed on one rung, the one nearest 720p, in one pass over the windows (they depend
        // only on the H.264 choice); each other rung takes the same distance from its H.264 CRF. Probing every rung
        // of HEVC and AV1 cost as much as a third of the ladder's own encode.
        let others = plan.codecs.filter { $0 != .h264 }
        let probed =
            plan.rungs.indices.min {
                abs(Self.shortSide(plan.rungs[$0]) - 720) < abs(Self.shortSide(plan.rungs[$1]) - 720)
            } ?? 0
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
        let analysis = RateAnalysis(
            windowStarts: probe.windowStarts, windowSeconds: probe.windowSeconds,
            cpuSeconds: ThreadCPU.processSeconds() - startedCPU, elapsedSeconds: Date().timeIntervalSince(started),
            renditions: renditions)
        return (plan, analysis)
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
