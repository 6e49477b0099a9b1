/// The handling `LoudnessPolicy` chose for one clip.
package struct LoudnessDecision: Sendable, Equatable {
    /// The gain applied to every sample before the limiter (0 for silence).
    package var gainDB: Double
    /// BS.1770's gates left nothing to measure: the audio is left alone.
    package var isSilent: Bool
    /// The clip needed more gain than `maxGainDB` and stays below the target.
    package var isCapped: Bool
    /// The gain alone would put the true peak above the limiter's threshold.
    package var needsLimiter: Bool
    package var policy: LoudnessPolicy
    /// Where the limiter holds the peaks lower still, for a lossy encoder's overshoot there.
    package var trims = ThresholdTrims()

    /// Whether the audio is changed at all.
    package var changesAudio: Bool { !isSilent && (gainDB != 0 || needsLimiter) }

    /// The processor that applies this decision to `channels` channels at `sampleRate`, or nil when the audio is
    /// to pass unchanged.
    package func makeNormalizer(channels: Int, sampleRate: Int) -> LoudnessNormalizer? {
        guard changesAudio else { return nil }
        let limiter =
            needsLimiter
            ? TruePeakLimiter(
                channels: channels, sampleRate: sampleRate, thresholdDBTP: policy.limiterThresholdDBTP, trims: trims)
            : nil
        return LoudnessNormalizer(gainDB: gainDB, channels: channels, limiter: limiter)
    }
}
