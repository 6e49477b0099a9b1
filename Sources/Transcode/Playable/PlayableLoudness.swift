internal import Ingest
internal import LibAV
internal import LibEBUR128
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
        let pass = LoudnessPrePass(audio: preset.audio)
        let measurement = try measure(admitted, audioIndex: audioIndex, audio: preset.audio)
        do {
            return try LoudnessPlan(measurement, settings: preset.loudness, pass: pass, bitratesKbps: [bitrateKbps])
        } catch {
            throw TranscodeError(.encodeFailed, "refining the loudness gain: \(error)", path: admitted.path)
        }
    }

    /// `LoudnessPrePass.measure`, stopped once `seconds` of audio are read.
    static func measure(
        _ admitted: AdmittedVideo, audioIndex: Int, audio: LadderPreset.Audio
    ) throws(TranscodeError) -> LoudnessPrePass.Measurement {
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
            let wanted = Int(seconds * Double(audio.sampleRate))
            func add(_ converted: Frame) throws {
                let channels = try converted.floatChannels()
                try meter.add(interleaved: LoudnessPrePass.interleave(channels))
                for (index, channel) in channels.enumerated() { samples[index] += channel }
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
            while (samples.first?.count ?? 0) < wanted, try input.read(into: packet) == .output {
                defer { packet.unref() }
                guard packet.streamIndex == audioIndex else { continue }
                _ = try decoder.send(packet)
                try drain()
            }
            _ = try decoder.send(nil)
            try drain()
            if let resampler { try add(try resampler.convert(nil)) }
            let peak = try (0..<audio.channels).map { try meter.truePeak(channel: $0) }.max() ?? 0
            return LoudnessPrePass.Measurement(
                integratedLUFS: try meter.integratedLoudness(), truePeakDBTP: amplitudeToDecibels(peak), audio: samples)
        } catch let error as AVError {
            throw TranscodeError(error, path: admitted.path)
        } catch {
            throw TranscodeError(.encodeFailed, "measuring the loudness: \(error)", path: admitted.path)
        }
    }
}
