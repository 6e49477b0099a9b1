internal import Foundation
internal import LibAV

/// One rung of the ladder: its scaler, H.264 and AAC encoders and HLS muxer. Only one thread touches it at a time.
final class RungOutput: @unchecked Sendable {
    let rung: LadderPlan.Rung
    let directory: String
    let video: Encoder
    let audio: Encoder?
    let muxer: OutputContext
    let videoStream: Int
    let audioStream: Int?
    private var scaler: Scaler?
    private var scalerInput: (Int, Int, PixelFormat)?
    private let packet: Packet
    /// The last picture scaled for this rung and the number of the source picture it came from. The session emits
    /// one source picture for several slots when it duplicates for a gap, and the poster asks again for the slot it
    /// just encoded: both reuse this instead of scaling again.
    private var lastScaled: (source: Int64, frame: Frame)?
    private(set) var framesEncoded = 0

    /// Where a rung goes: an HLS folder (fMP4 segments) or one progressive MP4 with its index up front.
    enum Destination {
        case hls(directory: String)
        case mp4(path: String)
    }

    init(rung: LadderPlan.Rung, plan: LadderPlan, preset: LadderPreset, destination: Destination, color: ColorDescription,
         hasAudio: Bool, threads: Int) throws(AVError) {
        self.rung = rung
        switch destination {
        case let .hls(directory): self.directory = directory
        case let .mp4(path): self.directory = (path as NSString).deletingLastPathComponent
        }
        let fps = Rational(Int32(plan.frameRate.numerator), Int32(plan.frameRate.denominator))
        let keyint = String(plan.keyframeInterval)
        video = try Encoder(EncoderSettings(
            codec: "libx264",
            kind: .video(width: rung.width, height: rung.height, pixelFormat: .yuv420p, frameRate: fps),
            timeBase: fps.inverted, maxRate: Int64(rung.maxBitrateKbps) * 1000, bufferSize: Int64(rung.bufferKbits) * 1000,
            gopSize: plan.keyframeInterval, threads: threads, globalHeader: true, color: color,
            options: [("preset", preset.x264Preset), ("profile", "high"), ("crf", String(rung.crf)),
                      // Fixed, closed GOPs with no scene-cut keyframes: IDRs land on the same frames on every rung.
                      ("x264-params", "keyint=\(keyint):min-keyint=\(keyint):scenecut=0:open-gop=0"),
                      ("forced-idr", "1")]
        ))
        audio = hasAudio ? try Encoder(EncoderSettings(
            codec: "aac", kind: .audio(sampleRate: preset.audio.sampleRate, channels: preset.audio.channels),
            timeBase: Rational(1, Int32(preset.audio.sampleRate)), bitRate: Int64(rung.audioBitrateKbps) * 1000,
            globalHeader: true, options: [("profile", "aac_low")]
        )) : nil
        let muxer: OutputContext
        let options: [(String, String)]
        switch destination {
        case let .hls(directory):
            muxer = try OutputContext(path: directory + "/index.m3u8", format: "hls")
            options = [
                ("hls_time", String(preset.segmentSeconds)), ("hls_segment_type", "fmp4"), ("hls_playlist_type", "vod"),
                ("hls_flags", "independent_segments"), ("hls_fmp4_init_filename", "init.mp4"),
                ("hls_segment_filename", directory + "/seg_%03d.m4s"),
            ]
        case let .mp4(path):
            muxer = try OutputContext(path: path, format: "mp4")
            options = [("movflags", "+faststart")]
        }
        videoStream = try muxer.addStream(for: video)
        if let audio { audioStream = try muxer.addStream(for: audio) } else { audioStream = nil }
        self.muxer = muxer
        try muxer.writeHeader(options: options)
        packet = try Packet()
    }

    /// Scales `source` (upright, any format) to this rung, reusing the last result when it is the same picture.
    func picture(from source: SourcePicture) throws(AVError) -> Frame {
        if let lastScaled, lastScaled.source == source.number { return lastScaled.frame }
        let frame = source.frame
        let input = (frame.width, frame.height, frame.pixelFormat)
        if scaler == nil || scalerInput! != input {
            scaler = try Scaler(inputWidth: input.0, inputHeight: input.1, inputFormat: input.2,
                                outputWidth: rung.width, outputHeight: rung.height, outputFormat: .yuv420p, filter: .lanczos)
            scalerInput = input
        }
        let scaled = try scaler!.scale(frame)
        scaled.colorDescription = frame.colorDescription
        lastScaled = (source.number, scaled)
        return scaled
    }

    /// Encodes the picture for output slot `index`; an IDR every keyframe interval.
    func encodeVideo(_ source: SourcePicture, slot index: Int64, keyframeInterval: Int) throws(AVError) {
        let frame = try picture(from: source)
        frame.pts = index
        frame.forceKeyframe(index % Int64(keyframeInterval) == 0)
        _ = try video.send(frame)
        framesEncoded += 1
        try drain(video, stream: videoStream)
    }

    func encodeAudio(_ frame: Frame?) throws(AVError) {
        guard let audio, let audioStream else { return }
        _ = try audio.send(frame)
        try drain(audio, stream: audioStream)
    }

    func finish() throws(AVError) {
        _ = try video.send(nil)
        try drain(video, stream: videoStream)
        try encodeAudio(nil)
        try muxer.writeTrailer()
    }

    private func drain(_ encoder: Encoder, stream: Int) throws(AVError) {
        while try encoder.receive(into: packet) == .output {
            packet.streamIndex = stream
            if packet.duration == 0, encoder === video { packet.duration = 1 }
            packet.rescale(from: encoder.timeBase, to: muxer.timeBase(ofStream: stream))
            try muxer.write(packet)
        }
    }
}
