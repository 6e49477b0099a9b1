internal import Ingest
internal import LibAV
internal import Loudness
internal import MediaModel

/// Copies an upload that already is a rung into that rung's HLS rendition: its video packets into fMP4 segments cut
/// at its keyframes (libavformat's hls muxer, VOD, the names `RungOutput` uses), its audio copied when it is on the
/// loudness target, else decoded, brought to the target and encoded again as the rung's AAC.
/// `@unchecked Sendable`: one thread runs it from start to end.
final class PlayableRemuxer: @unchecked Sendable {
    let input: InputContext
    let videoIndex: Int
    let audioIndex: Int?
    let output: OutputContext
    private var map: [Int: Int] = [:]
    /// Set when the audio is encoded again; nil when it is copied or absent.
    private var audio: (decoder: Decoder, encoder: Encoder, fifo: AudioFIFO)?
    private var normalizer: LoudnessNormalizer?
    private var resampler: Resampler?
    private var audioSamples: Int64 = 0
    private let preset: LadderPreset
    private(set) var videoPackets = 0

    /// - Parameters:
    ///   - normalize: the loudness plan whose gain the audio gets; nil copies the audio as it is.
    /// - Parameter scanned: the scan's input, at the start of the upload.
    init(
        _ admitted: AdmittedVideo, scanned: PlayableScan.Scanned, rung: LadderPlan.Rung, preset: LadderPreset,
        directory: String, normalize: LoudnessPlan?
    ) throws {
        self.preset = preset
        input = scanned.input
        videoIndex = scanned.videoIndex
        audioIndex = scanned.audioIndex
        output = try OutputContext(path: directory + "/index.m3u8", format: "hls")
        map[videoIndex] = try output.addStream(copying: videoIndex, of: input)
        if let audioIndex {
            if let normalize {
                let encoder = try Encoder(
                    EncoderSettings(
                        codec: "aac",
                        kind: .audio(sampleRate: preset.audio.sampleRate, channels: preset.audio.channels),
                        timeBase: Rational(1, Int32(preset.audio.sampleRate)),
                        bitRate: Int64(rung.audioBitrateKbps) * 1000, globalHeader: true,
                        options: [("profile", "aac_low")]))
                let decoder = try input.makeDecoder(
                    streamIndex: audioIndex, threads: 1, maxPixels: admitted.limits.maxPixels,
                    codecWhitelist: AdmissionPolicy.audioCodecs)
                let fifo = try AudioFIFO(
                    formatRaw: encoder.sampleFormatRaw, channels: preset.audio.channels,
                    sampleRate: preset.audio.sampleRate)
                map[audioIndex] = try output.addStream(for: encoder)
                audio = (decoder, encoder, fifo)
                normalizer = normalize.makeNormalizer(for: preset.audio)
            } else {
                map[audioIndex] = try output.addStream(copying: audioIndex, of: input)
            }
        }
        try output.writeHeader(options: [
            ("hls_time", String(preset.segmentSeconds)), ("hls_segment_type", "fmp4"), ("hls_playlist_type", "vod"),
            ("hls_flags", "independent_segments"), ("hls_fmp4_init_filename", "init.mp4"),
            ("hls_segment_filename", directory + "/seg_%03d.m4s"),
        ])
    }

    /// Copies every packet (encoding the audio when asked), then writes the playlist and its last segment.
    func run(isCancelled: () -> Bool) throws {
        let packet = try Packet()
        let frame = try Frame()
        while try input.read(into: packet) == .output {
            defer { packet.unref() }
            if isCancelled() { throw TranscodeError(.cancelled, path: "") }
            if let audio, packet.streamIndex == audioIndex {
                _ = try audio.decoder.send(packet)
                try drainAudio(frame)
                continue
            }
            guard let target = map[packet.streamIndex] else { continue }
            if packet.streamIndex == videoIndex { videoPackets += 1 }
            packet.rescale(
                from: try input.timeBase(ofStream: packet.streamIndex), to: try output.timeBase(ofStream: target))
            packet.streamIndex = target
            try output.write(packet)
        }
        if let audio {
            _ = try audio.decoder.send(nil)
            try drainAudio(frame)
            if let resampler { try audio.fifo.write(try normalized(resampler.convert(nil))) }
            if normalizer != nil, let rest = normalizer?.finish() {
                try audio.fifo.write(try Frame(floatChannels: rest, sampleRate: preset.audio.sampleRate))
            }
            try encodeAudio(minimum: 1)
            try encode(nil)
        }
        try output.writeTrailer()
    }

    private func drainAudio(_ frame: Frame) throws {
        guard let audio else { return }
        while try audio.decoder.receive(into: frame) == .output {
            if resampler == nil {
                resampler = try Resampler(
                    from: frame, outputRate: preset.audio.sampleRate, outputChannels: preset.audio.channels,
                    outputFormatRaw: audio.fifo.formatRaw)
            }
            try audio.fifo.write(try normalized(resampler!.convert(frame)))
            frame.unref()
            try encodeAudio(minimum: 1024)
        }
    }

    private func normalized(_ frame: Frame) throws(AVError) -> Frame {
        guard normalizer != nil else { return frame }
        let samples = try frame.floatChannels()
        return try Frame(floatChannels: normalizer!.process(samples), sampleRate: preset.audio.sampleRate)
    }

    /// Whole 1024-sample AAC frames (the last may be shorter).
    private func encodeAudio(minimum: Int) throws {
        guard let audio else { return }
        while audio.fifo.count >= minimum, audio.fifo.count > 0 {
            let chunk = try audio.fifo.read(1024)
            chunk.pts = audioSamples
            audioSamples += Int64(chunk.sampleCount)
            try encode(chunk)
        }
    }

    private func encode(_ chunk: Frame?) throws {
        guard let audio, let audioIndex, let target = map[audioIndex] else { return }
        _ = try audio.encoder.send(chunk)
        let packet = try Packet()
        while try audio.encoder.receive(into: packet) == .output {
            packet.streamIndex = target
            packet.rescale(from: audio.encoder.timeBase, to: try output.timeBase(ofStream: target))
            try output.write(packet)
            packet.unref()
        }
    }
}
