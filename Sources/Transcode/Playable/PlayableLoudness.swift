internal import Ingest
internal import Loudness
internal import MediaModel

/// The first rung's loudness gain from the first seconds of the audio (issue 64): the ladder's whole-file pre-pass
/// (`LoudnessPrePass`, with its refinement and AAC overshoot check) took 0.30, 0.57 and 1.09 s for 15, 30 and 60 s
/// clips, half of the time to playable.json for a 60 s one. The same policy, refinement and overshoot check run on
/// what was read; a louder passage later is held under the ceiling by the normalizer's true-peak limiter.
enum PlayableLoudness {
    /// What the first rung reads: 10 s, five 2 s segments.
    static let seconds = 10.0

    /// The plan for the first `seconds` of `audioIndex` on an input of its own; nil when loudness is off.
    /// - Throws: `TranscodeError` when the upload cannot be opened again or a libav or libebur128 call fails.
    static func plan(
        _ admitted: AdmittedVideo, audioIndex: Int?, preset: LadderPreset, bitrateKbps: Int
    ) throws(TranscodeError) -> LoudnessPlan? {
        guard let audioIndex, preset.loudness.enabled else { return nil }
        var pass = LoudnessPrePass(audio: preset.audio)
        pass.readSeconds = seconds
        let measurement = try pass.measure(admitted, audioIndex: audioIndex)
        do {
            return try LoudnessPlan(measurement, settings: preset.loudness, pass: pass, bitratesKbps: [bitrateKbps])
        } catch {
            throw TranscodeError(.encodeFailed, "refining the loudness gain: \(error)", path: admitted.path)
        }
    }
}
