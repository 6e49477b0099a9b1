internal import FileSystem
internal import Foundation

/// Content-aware rates for one clip: probes its sampled windows per rung, H.264 first, then each other codec around
/// the H.264 choice, and sets every rendition's CRF in the plan (`RateDecision` chooses; `RateProbe` measures).
struct RateAnalyzer {
    let preset: LadderPreset
    var settings: LadderPreset.ContentAware { preset.contentAware }

    /// Where the windows start and how long each is: `samples` windows, each centred in an equal part of the clip;
    /// a clip no longer than all of them together is one window, the whole clip. An unknown length (0) samples the
    /// start.
    static func windows(duration: Double, samples: Int, seconds: Double) -> (starts: [Double], seconds: Double) {
        guard duration > 0 else { return ([0], seconds) }
        guard duration > Double(samples) * seconds else { return ([0], duration) }
        let part = duration / Double(samples)
        let starts = (0..<samples).map { index in
            min(max(0, part * (Double(index) + 0.5) - seconds / 2), duration - seconds)
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
            decision.h264ProbeCRFs(base: plan.rungs[index].crf).map { RateProbe.Encode(rung: index, codec: .h264, crf: $0) }
        }
        let h264Points = try probe.measure(h264Encodes)
        var h264Predicted: [Double] = []
        for index in plan.rungs.indices {
            let points = zip(h264Encodes, h264Points).filter { $0.0.rung == index }.map(\.1)
            let template = preset.rungs.first { $0.id == plan.rungs[index].id }
            let choice = decision.h264(base: plan.rungs[index].crf, target: template?.targetSSIMY, probes: points)
            plan.rungs[index].setCRF(choice.crf, for: .h264)
            plan.rungs[index].targetSSIMY[.h264] = choice.targetSSIMY
            h264Predicted.append(choice.predictedSSIMY)
            renditions.append(Self.record(choice, rung: plan.rungs[index].id, codec: .h264, probes: points))
        }

        for codec in plan.codecs where codec != .h264 {
            let (offset, step) = codec == .hevc ? (preset.hevc.crfOffset, preset.hevc.probeCRFStep)
                                                : (preset.av1.crfOffset, preset.av1.probeCRFStep)
            let encodes = plan.rungs.indices.flatMap { index in
                decision.probeCRFs(codec, h264CRF: plan.rungs[index].crf, offset: offset, step: step)
                    .map { RateProbe.Encode(rung: index, codec: codec, crf: $0) }
            }
            let points = try probe.measure(encodes)
            for index in plan.rungs.indices {
                let own = zip(encodes, points).filter { $0.0.rung == index }.map(\.1)
                let choice = decision.other(codec, probes: own, h264PredictedSSIMY: h264Predicted[index], step: step)
                plan.rungs[index].setCRF(choice.crf, for: codec)
                plan.rungs[index].targetSSIMY[codec] = choice.targetSSIMY
                renditions.append(Self.record(choice, rung: plan.rungs[index].id, codec: codec, probes: own))
            }
        }
        let analysis = RateAnalysis(
            windowStarts: probe.windowStarts, windowSeconds: probe.windowSeconds,
            cpuSeconds: ThreadCPU.processSeconds() - startedCPU, elapsedSeconds: Date().timeIntervalSince(started),
            renditions: renditions)
        return (plan, analysis)
    }

    private static func record(_ choice: RateDecision.Choice, rung: String, codec: VideoCodec,
                               probes: [RateProbePoint]) -> RateAnalysis.Rendition {
        RateAnalysis.Rendition(id: codec.renditionID(rung: rung), rung: rung, videoCodec: codec, crf: choice.crf,
                               targetSSIMY: choice.targetSSIMY, predictedSSIMY: choice.predictedSSIMY, probes: probes)
    }
}
