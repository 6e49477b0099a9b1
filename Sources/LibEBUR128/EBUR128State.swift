internal import CEbur128

/// Owns one `ebur128_state`: a running ITU-R BS.1770-4 loudness measurement (K-weighting, gating) of interleaved
/// float samples; destroyed in `deinit`.
package final class EBUR128State {
    /// What a state can report; each costs work per sample, so ask only for what is read.
    package struct Mode: OptionSet, Sendable {
        package let rawValue: Int32
        package init(rawValue: Int32) { self.rawValue = rawValue }
        /// Gated integrated loudness (`ebur128_loudness_global`).
        package static let integrated = Mode(rawValue: Int32(EBUR128_MODE_I.rawValue))
        /// True peak by 4x oversampling below 96 kHz (`ebur128_true_peak`).
        package static let truePeak = Mode(rawValue: Int32(EBUR128_MODE_TRUE_PEAK.rawValue))
    }

    let state: UnsafeMutablePointer<ebur128_state>
    package let channels: Int
    package let sampleRate: Int
    /// How many samples per channel were added.
    package private(set) var frames = 0

    /// - Throws: `EBUR128Error` naming `ebur128_init` for a channel count or rate it refuses (or no memory).
    package init(channels: Int, sampleRate: Int, mode: Mode) throws(EBUR128Error) {
        guard (1...64).contains(channels), (1...2_822_400).contains(sampleRate) else {
            throw EBUR128Error(
                function: "ebur128_init", message: "\(channels) channels at \(sampleRate) Hz is out of range")
        }
        guard let state = ebur128_init(UInt32(channels), UInt(sampleRate), mode.rawValue) else {
            throw EBUR128Error(function: "ebur128_init", message: "no state for \(channels) ch at \(sampleRate) Hz")
        }
        self.state = state
        self.channels = channels
        self.sampleRate = sampleRate
    }

    deinit {
        var p: UnsafeMutablePointer<ebur128_state>? = state
        ebur128_destroy(&p)
    }

    /// Adds samples interleaved by channel (L R L R ... for stereo); a partial last frame is refused.
    /// - Throws: `EBUR128Error` naming `ebur128_add_frames_float`.
    package func add(interleaved samples: [Float]) throws(EBUR128Error) {
        guard samples.count % channels == 0 else {
            throw EBUR128Error(
                function: "ebur128_add_frames_float",
                message: "\(samples.count) samples do not divide into \(channels) channels")
        }
        let count = samples.count / channels
        guard count > 0 else { return }
        let status = samples.withUnsafeBufferPointer { ebur128_add_frames_float(state, $0.baseAddress, count) }
        try check(status, "ebur128_add_frames_float")
        frames += count
    }

    /// The gated integrated loudness in LUFS of everything added; `-infinity` when every block is gated out
    /// (silence, or less than 400 ms of audio).
    /// - Throws: `EBUR128Error` naming `ebur128_loudness_global` when the state lacks `.integrated`.
    package func integratedLoudness() throws(EBUR128Error) -> Double {
        var value = 0.0
        try check(ebur128_loudness_global(state, &value), "ebur128_loudness_global")
        return value
    }

    /// The highest true peak of `channel` so far, as a linear amplitude (1 is full scale).
    /// - Throws: `EBUR128Error` naming `ebur128_true_peak` (no such channel, or no `.truePeak` mode).
    package func truePeak(channel: Int) throws(EBUR128Error) -> Double {
        guard (0..<channels).contains(channel) else {
            throw EBUR128Error(function: "ebur128_true_peak", message: "no channel \(channel) of \(channels)")
        }
        var value = 0.0
        try check(ebur128_true_peak(state, UInt32(channel), &value), "ebur128_true_peak")
        return value
    }

    /// The highest true peak of `channel` among the samples of the last `add` only, as a linear amplitude: read
    /// after each block, it says where in the audio the peaks are.
    /// - Throws: `EBUR128Error` naming `ebur128_prev_true_peak` (no such channel, or no `.truePeak` mode).
    package func lastTruePeak(channel: Int) throws(EBUR128Error) -> Double {
        guard (0..<channels).contains(channel) else {
            throw EBUR128Error(function: "ebur128_prev_true_peak", message: "no channel \(channel) of \(channels)")
        }
        var value = 0.0
        try check(ebur128_prev_true_peak(state, UInt32(channel), &value), "ebur128_prev_true_peak")
        return value
    }
}
