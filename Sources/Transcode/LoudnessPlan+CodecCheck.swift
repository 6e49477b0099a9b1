internal import LibAV
internal import LibEBUR128
internal import Loudness

extension LoudnessPlan {
    /// FFmpeg's AAC encoder adds overshoot after the limiter that no fixed margin bounds (+3.7 dB on speech at
    /// 64 kb/s against a 2 dB margin; docs/quirks.md). So the normalised clip is encoded at each of the ladder's AAC
    /// rates and decoded, as a player would, and where its true peak passes the ceiling the limiter's margin grows by
    /// the excess and the gain is refined again, up to `attempts` times. The encoder is deterministic, so the
    /// ladder's own encode of the same samples comes out the same.
    /// - Throws: `AVError` or `EBUR128Error` naming the call that failed.
    mutating func boundCodecOvershoot(
        audio: [[Float]], bitratesKbps: [Int], pass: LoudnessPrePass, attempts: Int = 3
    ) throws {
        guard decision.changesAudio, let samples = audio.first?.count, samples > 0 else { return }
        for _ in 0..<attempts {
            guard var normalizer = makeNormalizer(for: pass.audio) else { return }
            let head = normalizer.process(audio)
            let processed = zip(head, normalizer.finish()).map { $0 + $1 }
            let peak =
                try Set(bitratesKbps).map { try Self.encodedTruePeak(processed, bitrateKbps: $0, pass: pass) }
                .max() ?? -.infinity
            codecPeakDBTP = peak
            let excess = peak - decision.policy.truePeakCeilingDBTP
            guard excess > 0 else { return }
            var policy = decision.policy
            policy.codecMarginDB += excess + 0.3
            decision = try policy.decide(
                sourceLUFS: measurement.integratedLUFS, sourceTruePeakDBTP: measurement.truePeakDBTP
            ).refined(for: audio, sampleRate: pass.audio.sampleRate, steps: 8) { try pass.integratedLoudness(of: $0) }
        }
    }

    /// The highest true peak (dBTP) of `channels` once AAC-LC at `bitrateKbps` has encoded them and a decoder has
    /// read them back, measured by libebur128.
    static func encodedTruePeak(_ channels: [[Float]], bitrateKbps: Int, pass: LoudnessPrePass) throws -> Double {
        let audio = pass.audio
        let encoder = try Encoder(
            EncoderSettings(
                codec: "aac", kind: .audio(sampleRate: audio.sampleRate, channels: audio.channels),
                timeBase: Rational(1, Int32(audio.sampleRate)), bitRate: Int64(bitrateKbps) * 1000,
                globalHeader: true, options: [("profile", "aac_low")]))
        let decoder = try Decoder(decoding: encoder, threads: 1)
        let meter = try EBUR128State(channels: audio.channels, sampleRate: audio.sampleRate, mode: .truePeak)
        let packet = try Packet()
        let decoded = try Frame()
        func drain() throws {
            while try encoder.receive(into: packet) == .output {
                _ = try decoder.send(packet)
                packet.unref()
                while try decoder.receive(into: decoded) == .output {
                    try meter.add(interleaved: LoudnessPrePass.interleave(try decoded.floatChannels()))
                    decoded.unref()
                }
            }
        }
        let count = channels.first?.count ?? 0
        let size = max(encoder.frameSize, 1)
        for start in stride(from: 0, to: count, by: size) {
            let frame = try Frame(
                floatChannels: channels.map { Array($0[start..<min(start + size, count)]) },
                sampleRate: audio.sampleRate)
            frame.pts = Int64(start)
            _ = try encoder.send(frame)
            try drain()
        }
        _ = try encoder.send(nil)
        try drain()
        _ = try decoder.send(nil)
        while try decoder.receive(into: decoded) == .output {
            try meter.add(interleaved: LoudnessPrePass.interleave(try decoded.floatChannels()))
            decoded.unref()
        }
        let peak = try (0..<audio.channels).map { try meter.truePeak(channel: $0) }.max() ?? 0
        return amplitudeToDecibels(peak)
    }
}
