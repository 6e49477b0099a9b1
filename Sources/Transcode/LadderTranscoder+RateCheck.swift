internal import FileSystem
internal import Foundation
internal import Ingest
internal import LibAV
internal import MediaModel

extension LadderTranscoder {
    /// What a content-aware ladder's check measures apart, in the ladder's output slots: the probe windows, and a
    /// sample of GOPs that an encoder at each moved H.264 rung's own CRF encodes beside the ladder.
    struct CheckSlots {
        var windows: [Range<Int64>]
        var sample: [Range<Int64>]
        /// By rung id, the CRF each reference encoder takes: the rung's own, for each H.264 rung whose CRF rose.
        var references: [String: Double]
        var pools: [[Range<Int64>]] { [windows, sample] }
    }

    /// nil when the ladder needs no check: fixed CRFs, or an H.264 ladder whose CRFs all stayed (the plain ladder,
    /// its own reference). A ladder with other codecs is always checked: they are held against its H.264.
    static func checkSlots(
        _ plan: LadderPlan, base: LadderPlan, analysis: RateAnalysis?, duration: Double
    ) -> CheckSlots? {
        guard let analysis else { return nil }
        var references: [String: Double] = [:]
        for (rung, before) in zip(plan.rungs, base.rungs) where rung.crf != before.crf {
            references[rung.id] = VideoCodec.h264.crf(onGrid: before.crf)
        }
        guard plan.codecs.count > 1 || !references.isEmpty else { return nil }
        let fps = plan.frameRateValue
        let frames = Int64(max(1, (analysis.windowSeconds * fps).rounded()))
        let windows = analysis.windowStarts.map { start in
            let first = Int64((start * fps).rounded())
            return first..<(first + frames)
        }
        return CheckSlots(
            windows: windows,
            sample: references.isEmpty
                ? []
                : sampledGOPs(
                    slots: Int64((duration * fps).rounded()), keyframeInterval: plan.keyframeInterval, windows: windows),
            references: references)
    }

    /// The GOPs the reference encoders sample: of those no probe window covers, every third from the second (the
    /// first alone when there are fewer), so that the windows and the sample together cover about half the clip,
    /// spread over all of it, for about a quarter of each moved rung's encode.
    static func sampledGOPs(slots: Int64, keyframeInterval: Int, windows: [Range<Int64>]) -> [Range<Int64>] {
        let length = Int64(max(1, keyframeInterval))
        let gops = (0..<max(1, (slots + length - 1) / length)).map { ($0 * length)..<min(($0 + 1) * length, slots) }
        let free = gops.filter { gop in !gop.isEmpty && !windows.contains { $0.overlaps(gop) } }
        let chosen = stride(from: 1, to: free.count, by: 3).map { free[$0] }
        return chosen.isEmpty ? Array(free.prefix(1)) : chosen
    }

    /// Holds every rendition of `session` against its bound (`RateChecker`) and encodes the ones outside again, each
    /// pass in a session of its own over the whole clip, limited to them; their folders in `directory` are replaced
    /// and their entries in `renditions` with them.
    func checkRates(
        _ admitted: AdmittedVideo, session: LadderSession, plan: LadderPlan, analysis: RateAnalysis,
        slots: CheckSlots, directory: String, renditions: inout [TranscodeSummary.Rendition],
        isCancelled: @Sendable () -> Bool
    ) throws -> RateCheck {
        let startedCPU = ThreadCPU.processSeconds()
        let started = Date()
        let subjects = Self.checkSubjects(session.outputs, slots: slots, analysis: analysis, preset: preset)
        // What the rung's own CRF measured on each part: the probe there, over the windows; the reference encoder,
        // over the sample. They stand for every encode of the rung.
        var references: [String: [Double?]] = [:]
        for subject in subjects where subject.codec == .h264 && slots.references[subject.rung] != nil {
            let probe = analysis.renditions.first { $0.id == subject.id }?.probes.first { $0.crf == subject.baseCRF }
            references[subject.id] = [probe?.ssimY, session.referenceSSIMY[subject.rung]]
        }
        let measure = { (outputs: [RungOutput]) in
            var measured: [String: RateChecker.Measured] = [:]
            for output in outputs {
                guard let meter = output.meter else { continue }
                let parts = zip(meter.pooled, references[output.id] ?? []).compactMap { pooled, reference in
                    reference.flatMap {
                        pooled.windows > 0 ? RateBound.Part(ssimY: pooled.mean, referenceSSIMY: $0) : nil
                    }
                }
                measured[output.id] = RateChecker.Measured(ssimY: meter.ssim.mean, parts: parts)
            }
            return measured
        }
        var plan = plan
        let checker = RateChecker(bound: RateBound(maxDrop: preset.contentAware.maxSSIMDrop))
        let (checked, passes) = try checker.run(subjects, measured: measure(session.outputs)) { crfs in
            for (id, crf) in crfs {
                guard let subject = subjects.first(where: { $0.id == id }),
                    let index = plan.rungs.firstIndex(where: { $0.id == subject.rung })
                else { continue }
                plan.rungs[index].setCRF(crf, for: subject.codec)
            }
            let again = try encodeAgain(
                admitted, plan: plan, only: Set(crfs.keys), decodeLead: session.decodeLead, pools: slots.pools,
                directory: directory, loudness: session.loudnessPlan, isCancelled: isCancelled)
            for rendition in try again.renditions() {
                if let index = renditions.firstIndex(where: { $0.id == rendition.id }) { renditions[index] = rendition }
            }
            return measure(again.outputs)
        }
        let fps = plan.frameRateValue
        return RateCheck(
            renditions: checked,
            sample: slots.sample.map { [Double($0.lowerBound) / fps, Double($0.upperBound) / fps] },
            sampleCPUSeconds: session.referenceCPUSeconds, passes: passes,
            cpuSeconds: ThreadCPU.processSeconds() - startedCPU, elapsedSeconds: Date().timeIntervalSince(started))
    }

    /// What the check needs of each rendition: its rung's own CRF for H.264, its probes' slope for the other codecs.
    private static func checkSubjects(
        _ outputs: [RungOutput], slots: CheckSlots, analysis: RateAnalysis, preset: LadderPreset
    ) -> [RateChecker.Subject] {
        outputs.map { output in
            let crf = output.rung.crf(output.codec)
            // Its own probes where its rung was probed, else those of the rung that was.
            let probed = analysis.renditions.filter { $0.videoCodec == output.codec && !$0.probes.isEmpty }
            let codecProbes = (probed.first { $0.id == output.id } ?? probed.first)?.probes ?? []
            let pair = Array(codecProbes.sorted { $0.crf < $1.crf }.suffix(2))
            return RateChecker.Subject(
                id: output.id, rung: output.rung.id, codec: output.codec, crf: crf,
                baseCRF: slots.references[output.rung.id] ?? VideoCodec.h264.crf(onGrid: output.rung.crf),
                probeSlope: pair.count == 2 ? SSIMCurve(pair[0], pair[1]).map(\.slope) : nil,
                probeStep: preset.offsetAndProbeStep(output.codec).step)
        }
    }

    /// Encodes the renditions `only` again at `plan`'s CRFs, reading the clip from the start on an input of its own,
    /// into a hidden folder of `directory`, then puts each in place of the one it replaces.
    private func encodeAgain(
        _ admitted: AdmittedVideo, plan: LadderPlan, only: Set<String>, decodeLead: Int64,
        pools: [[Range<Int64>]], directory: String, loudness: LoudnessPlan?, isCancelled: @Sendable () -> Bool
    ) throws -> LadderSession {
        let (input, videoIndex, audioIndex) = try Self.openStreams(admitted)
        let staging = directory + "/.again"
        Directory.remove(staging)
        try Directory.create(staging)
        defer { Directory.remove(staging) }
        let session = try LadderSession(
            input: input, videoIndex: videoIndex, audioIndex: audioIndex, plan: plan, preset: preset,
            destination: { rung, codec in .hls(directory: staging + "/" + codec.renditionID(rung: rung.id)) },
            limits: admitted.limits, threads: encoderThreads, measure: true, pools: pools, only: only,
            decodeLead: decodeLead, converter: try HDRConverter.make(for: admitted))
        session.normalizeLoudness(loudness)
        try session.run(duration: admitted.info.durationSeconds ?? 0, isCancelled: isCancelled) { _ in }
        for output in session.outputs {
            Directory.remove(directory + "/" + output.id)
            try Directory.move(staging + "/" + output.id, to: directory + "/" + output.id)
            output.directory = directory + "/" + output.id
        }
        return session
    }
}
