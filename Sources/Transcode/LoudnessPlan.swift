internal import Ingest
internal import Loudness
internal import MediaModel

/// One upload's loudness handling (issue 61): what its audio measured once, and what every rendition's audio gets.
struct LoudnessPlan {
    var measurement: LoudnessPrePass.Measurement
    var decision: LoudnessDecision
    /// The true peak the normalised audio measured after AAC at the ladder's worst rate (`boundCodecOvershoot`).
    var codecPeakDBTP: Double?

    /// The preset's policy applied to `measurement`, its gain refined on the clip where the limiter acts, and its
    /// limiter's margin grown where AAC at one of `bitratesKbps` would still pass the ceiling.
    /// - Throws: `EBUR128Error` or `AVError` when measuring a refinement fails.
    init(
        _ measurement: LoudnessPrePass.Measurement, settings: LadderPreset.Loudness, pass: LoudnessPrePass,
        bitratesKbps: [Int]
    ) throws {
        decision = try settings.policy.decide(
            sourceLUFS: measurement.integratedLUFS, sourceTruePeakDBTP: measurement.truePeakDBTP
        ).refined(for: measurement.audio, sampleRate: pass.audio.sampleRate) { try pass.integratedLoudness(of: $0) }
        self.measurement = measurement
        try boundCodecOvershoot(audio: measurement.audio, bitratesKbps: bitratesKbps, pass: pass)
        self.measurement.audio = []  // held only for the refinement
    }

    /// The audio may be copied as it is (`LoudnessPolicy.accepts`): `reel compress` only remuxes such a file.
    var acceptsSourceAudio: Bool {
        decision.policy.accepts(sourceLUFS: measurement.integratedLUFS, sourceTruePeakDBTP: measurement.truePeakDBTP)
    }

    /// The record of audio copied unchanged.
    var recordCopied: AudioLoudness {
        var decision = decision
        (decision.gainDB, decision.isCapped) = (0, false)
        return AudioLoudness(measurement, decision, limited: false)
    }

    /// A fresh processor for one encode of the audio in `audio`'s format; nil when the audio passes unchanged.
    func makeNormalizer(for audio: LadderPreset.Audio) -> LoudnessNormalizer? {
        decision.makeNormalizer(channels: audio.channels, sampleRate: audio.sampleRate)
    }

    /// The published record, once `normalizer` (the one that made the published audio) has run.
    func record(after normalizer: LoudnessNormalizer?) -> AudioLoudness {
        AudioLoudness(measurement, decision, limited: (normalizer?.limiter?.minimumGain ?? 1) < 1)
    }
}

extension LadderSession {
    /// Brings this session's audio to `plan` (nil: leaves it as it is); call before `run`.
    func normalizeLoudness(_ plan: LoudnessPlan?) {
        loudnessPlan = plan
        loudness = plan?.makeNormalizer(for: preset.audio)
    }
}

extension LadderTranscoder {
    /// Measures `admitted`'s audio once (`LoudnessPrePass`) and decides its handling; nil when it has no audio
    /// stream or the preset turns loudness off. The encoder's overshoot is checked at `bitratesKbps`, the AAC rates
    /// of the rungs this source gets (all of the preset's when nil): each costs an encode of the clip's audio.
    static func planLoudness(
        _ admitted: AdmittedVideo, audioIndex: Int?, preset: LadderPreset, bitratesKbps: [Int]? = nil
    ) throws(TranscodeError) -> LoudnessPlan? {
        guard let audioIndex, preset.loudness.enabled else { return nil }
        let pass = LoudnessPrePass(audio: preset.audio)
        let measurement = try pass.measure(admitted, audioIndex: audioIndex)
        do {
            return try LoudnessPlan(
                measurement, settings: preset.loudness, pass: pass,
                bitratesKbps: bitratesKbps ?? preset.rungs.map(\.audioBitrateKbps))
        } catch {
            throw TranscodeError(.encodeFailed, "refining the loudness gain: \(error)", path: admitted.path)
        }
    }
}
