internal import Ingest
internal import LibAV
internal import LibEBUR128
internal import Loudness
internal import MediaModel

/// Measures an upload's audio once, before the ladder (issue 61): its own input reads only the audio stream, which
/// is decoded and resampled exactly as the ladder resamples it (the preset's rate and channels, planar float), and
/// libebur128 reads the integrated loudness (ITU-R BS.1770-4, K-weighted and gated) and the true peak.
struct LoudnessPrePass {
    /// What the pass read: loudness in LUFS (`-infinity` when BS.1770's gates leave nothing) and true peak in dBTP,
    /// and the resampled audio itself (planar), on which the gain is refined where the limiter acts: empty when it
    /// ran past `keptSeconds` (then the gain is not refined).
    struct Measurement {
        var integratedLUFS: Double
        var truePeakDBTP: Double
        var audio: [[Float]]
    }

    let audio: LadderPreset.Audio
    /// The most audio kept for refining the gain: 10 minutes (230 MB of 48 kHz stereo floats), ten times the
    /// shipped admission limit. A longer track (a limit raised, or an audio stream that outlasts its container's
    /// duration) is measured all the same, with its gain unrefined.
    var keptSeconds = 600.0
    /// Stops once this much audio is read (the first rung's reading, issue 64); nil reads it all.
    var readSeconds: Double?

    /// - Throws: `TranscodeError`: the upload could not be opened again, or a libav or libebur128 call failed
    ///   (named in the message).
    func measure(_ admitted: AdmittedVideo, audioIndex: Int) throws(TranscodeError) -> Measurement {
        let input: InputContext
        do { input = try admitted.openInput() } catch { throw TranscodeError(.rejected(error), path: admitted.path) }
        do {
            input.discardAll(except: [audioIndex])
            let decoder = try input.makeDecoder(
                streamIndex: audioIndex, threads: 1, maxPixels: admitted.limits.maxPixels,
                codecWhitelist: AdmissionPolicy.audioCodecs)
            let meter = try EBUR128State(
                channels: audio.channels, sampleRate: audio.sampleRate, mode: [.integrated, .truePeak])
            var resampler: Resampler?
            let packet = try Packet()
            let frame = try Frame()
            var samples = Array(repeating: [Float](), count: audio.channels)
            var keeps = true
            let kept = Int(keptSeconds * Double(audio.sampleRate))
            let wanted = readSeconds.map { Int($0 * Double(audio.sampleRate)) } ?? .max
            var read = 0
            func add(_ converted: Frame) throws {
                let channels = try converted.floatChannels()
                read += channels.first?.count ?? 0
                try meter.add(interleaved: Self.interleave(channels))
                guard keeps else { return }
                for (index, channel) in channels.enumerated() { samples[index] += channel }
                if (samples.first?.count ?? 0) > kept {
                    keeps = false
                    samples = Array(repeating: [], count: audio.channels)
                }
            }
            func drain() throws {
                while try decoder.receive(into: frame) == .output {
                    if resampler == nil {
                        resampler = try Resampler(
                            from: frame, outputRate: audio.sampleRate, outputChannels: audio.channels,
                            outputFormatRaw: Frame.planarFloatFormatRaw)
                    }
                    try add(try resampler!.convert(frame))
                    frame.unref()
                }
            }
            while read < wanted, try input.read(into: packet) == .output {
                defer { packet.unref() }
                guard packet.streamIndex == audioIndex else { continue }
                _ = try decoder.send(packet)
                try drain()
            }
            _ = try decoder.send(nil)
            try drain()
            if let resampler { try add(try resampler.convert(nil)) }
            let peak = try (0..<audio.channels).map { try meter.truePeak(channel: $0) }.max() ?? 0
            return Measurement(
                integratedLUFS: try meter.integratedLoudness(), truePeakDBTP: amplitudeToDecibels(peak), audio: samples)
        } catch let error as AVError {
            throw TranscodeError(error, path: admitted.path)
        } catch {
            throw TranscodeError(.encodeFailed, "measuring the loudness: \(error)", path: admitted.path)
        }
    }

    /// The integrated loudness (LUFS) of planar audio in the preset's format.
    /// - Throws: `EBUR128Error` naming the libebur128 call that failed.
    func integratedLoudness(of channels: [[Float]]) throws(EBUR128Error) -> Double {
        let meter = try EBUR128State(channels: audio.channels, sampleRate: audio.sampleRate, mode: .integrated)
        try meter.add(interleaved: Self.interleave(channels))
        return try meter.integratedLoudness()
    }

    /// libebur128 reads samples interleaved by channel.
    static func interleave(_ channels: [[Float]]) -> [Float] {
        guard let count = channels.first?.count, count > 0 else { return [] }
        var out = [Float](repeating: 0, count: count * channels.count)
        for (channel, samples) in channels.enumerated() {
            for index in 0..<count { out[index * channels.count + channel] = samples[index] }
        }
        return out
    }
}

extension AudioLoudness {
    /// The record of what `decision` did to a clip measured as `measurement` (`limited`: the limiter lowered a peak).
    init(_ measurement: LoudnessPrePass.Measurement, _ decision: LoudnessDecision, limited: Bool) {
        func rounded(_ value: Double) -> Double? { value.isFinite ? (value * 100).rounded() / 100 : nil }
        self.init(
            sourceLUFS: rounded(measurement.integratedLUFS),
            sourceTruePeakDBTP: rounded(measurement.truePeakDBTP), gainDB: rounded(decision.gainDB) ?? 0,
            targetLUFS: decision.policy.targetLUFS, truePeakCeilingDBTP: decision.policy.truePeakCeilingDBTP,
            isLimited: limited, isCapped: decision.isCapped, isSilent: decision.isSilent)
    }
}
