internal import LibAV
internal import LibEBUR128
internal import Loudness

extension LoudnessPlan {
    /// FFmpeg's AAC encoder adds overshoot after the limiter that no fixed margin bounds (+3.7 dB on speech at
    /// 64 kb/s against a 2 dB margin; docs/quirks.md). So the normalised clip is encoded at each of the ladder's AAC
    /// rates and decoded, as a player would, and where its true peak passes the ceiling the limiter holds that
    /// stretch (and the AAC window either side) lower by the excess, up to `localAttempts` times. A global margin
    /// would cost the whole clip loudness for a few peaks: on espeak-ng speech it left the clip 1.5 LU short at the
    /// gain cap. Only if the stretches do not settle does the margin grow, as a last resort. The encoder is
    /// deterministic, so the ladder's own encode of the same samples comes out the same.
    /// - Throws: `AVError` or `EBUR128Error` naming the call that failed.
    mutating func boundCodecOvershoot(
        audio: [[Float]], bitratesKbps: [Int], pass: LoudnessPrePass, localAttempts: Int = 4, marginAttempts: Int = 2
    ) throws {
        guard decision.changesAudio, let samples = audio.first?.count, samples > 0 else { return }
        // Held a little under the ceiling, so a meter that interpolates differently from libebur128 agrees.
        let ceiling = decision.policy.truePeakCeilingDBTP - Self.meterTolerance
        for attempt in 0..<(localAttempts + marginAttempts) {
            guard var normalizer = makeNormalizer(for: pass.audio) else { return }
            let head = normalizer.process(audio)
            let processed = zip(head, normalizer.finish()).map { $0 + $1 }
            let peaks = try Set(bitratesKbps).map { try Self.encodedPeaks(processed, bitrateKbps: $0, pass: pass) }
            codecPeakDBTP = peaks.compactMap { $0.map(\.dbtp).max() }.max() ?? -.infinity
            let over = peaks.joined().filter { $0.dbtp > ceiling }
            guard !over.isEmpty else { return }
            if attempt < localAttempts {
                for stretch in Self.stretches(over, ceiling: ceiling, samples: samples) {
                    decision.trims.lower(stretch.range, by: stretch.decibels)
                }
                decision.needsLimiter = true
            } else {
                var policy = decision.policy
                policy.codecMarginDB += (codecPeakDBTP ?? ceiling) - ceiling + 0.3
                let trims = decision.trims
                decision = try policy.decide(
                    sourceLUFS: measurement.integratedLUFS, sourceTruePeakDBTP: measurement.truePeakDBTP
                ).refined(for: audio, sampleRate: pass.audio.sampleRate, steps: 8) {
                    try pass.integratedLoudness(of: $0)
                }
                decision.trims = trims
                decision.needsLimiter = true
            }
        }
    }

    /// One block of decoded audio and its highest true peak; `range` is in the encoder's input samples.
    struct BlockPeak {
        var range: Range<Int>
        var dbtp: Double
    }

    /// Samples per block whose true peak is read, and how far either side of a block over the ceiling the limiter
    /// is held lower: AAC's 2048-sample window, so the whole of every frame that spread the noise is covered.
    static let peakBlock = 512
    static let meterTolerance = 0.2
    static let windowReach = 2_048

    /// `over` widened by the AAC window, overlapping ones joined at the deepest excess, each lowered by its excess
    /// plus 0.5 dB (the encoder's noise moves with its input, so an exact cut would land just over again).
    static func stretches(_ over: [BlockPeak], ceiling: Double, samples: Int) -> [ThresholdTrims.Stretch] {
        var out: [ThresholdTrims.Stretch] = []
        for block in over.sorted(by: { $0.range.lowerBound < $1.range.lowerBound }) {
            let range =
                max(0, block.range.lowerBound - windowReach)..<min(samples, block.range.upperBound + windowReach)
            let depth = block.dbtp - ceiling + 0.5
            guard !range.isEmpty else { continue }
            if let last = out.last, last.range.upperBound >= range.lowerBound {
                out[out.count - 1] = ThresholdTrims.Stretch(
                    range: last.range.lowerBound..<max(last.range.upperBound, range.upperBound),
                    decibels: max(last.decibels, depth))
            } else {
                out.append(ThresholdTrims.Stretch(range: range, decibels: depth))
            }
        }
        return out
    }

    /// The true peak (dBTP, libebur128) of each `peakBlock` of `channels` once AAC-LC at `bitrateKbps` has encoded
    /// them and a decoder has read them back, placed at the input samples they came from.
    static func encodedPeaks(_ channels: [[Float]], bitrateKbps: Int, pass: LoudnessPrePass) throws -> [BlockPeak] {
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
        var pending: [Float] = []
        var decodedCount = 0
        var peaks: [(start: Int, count: Int, linear: Double)] = []
        func measure(_ interleaved: [Float], final: Bool) throws {
            pending += interleaved
            let block = peakBlock * audio.channels
            while pending.count >= block || (final && !pending.isEmpty) {
                let chunk = Array(pending.prefix(block))
                pending.removeFirst(chunk.count)
                try meter.add(interleaved: chunk)
                let linear = try (0..<audio.channels).map { try meter.lastTruePeak(channel: $0) }.max() ?? 0
                let count = chunk.count / audio.channels
                peaks.append((decodedCount, count, linear))
                decodedCount += count
            }
        }
        func drainDecoder() throws {
            while try decoder.receive(into: decoded) == .output {
                try measure(LoudnessPrePass.interleave(try decoded.floatChannels()), final: false)
                decoded.unref()
            }
        }
        func drain() throws {
            while try encoder.receive(into: packet) == .output {
                _ = try decoder.send(packet)
                packet.unref()
                try drainDecoder()
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
        try drainDecoder()
        try measure([], final: true)
        // The decoder gives the encoder's priming samples back unless the packets told it to skip them.
        let delay = decodedCount >= count + encoder.initialPadding ? encoder.initialPadding : 0
        return peaks.map { peak in
            BlockPeak(
                range: (peak.start - delay)..<(peak.start - delay + peak.count),
                dbtp: amplitudeToDecibels(peak.linear))
        }
    }
}
