internal import LibAV
internal import Loudness

extension LadderSession {
    /// `frame` (resampled, planar float) through the loudness normalizer, or as it is when there is none. The
    /// normalizer holds back its lookahead, so the frame returned may be shorter, or empty.
    func normalized(_ frame: Frame) throws(AVError) -> Frame {
        guard loudness != nil else { return frame }
        let out = loudness!.process(try frame.floatChannels())
        return try Frame(floatChannels: out, sampleRate: preset.audio.sampleRate)
    }

    /// What the normalizer still holds at the end of the audio (an empty frame when there is none).
    func normalizedRest() throws(AVError) -> Frame {
        guard loudness != nil else { return try Frame() }
        return try Frame(floatChannels: loudness!.finish(), sampleRate: preset.audio.sampleRate)
    }
}
