internal import FileSystem
internal import Foundation
internal import LibAV

/// One rendition: a rung in one codec, with its video encoder and muxer. The rung's scaled pictures (`RungScaler`)
/// and its AAC packets are shared by its renditions in every codec. Only one thread touches it at a time.
/// `@unchecked Sendable`: one task at a time encodes and muxes into it (`ParallelLoop` gives each output one task).
final class RungOutput: @unchecked Sendable {
    let rung: LadderPlan.Rung
    let codec: VideoCodec
    /// SDR, or the HDR range an HDR rendition keeps (10-bit HEVC with the source's transfer and metadata).
    let videoRange: TranscodeSummary.VideoRange
    /// Where its files are: moved when a rendition encoded again takes the place of the first (`LadderTranscoder`).
    var directory: String
    let video: Encoder
    let muxer: OutputContext
    let videoStream: Int
    let audioStream: Int?
    private let packet: Packet
    private(set) var framesEncoded = 0
    /// Frames by which every rendition's first video decode time precedes its first picture (the deepest reordering
    /// among the session's encoders). The muxer moves each file's timestamps so none is negative, by the earliest
    /// decode time it sees: with the same lead everywhere, every rendition is moved alike and its IDRs keep the same
    /// presentation times as the H.264 rungs'. Set before the first picture.
    var decodeLead: Int64 = 0
    /// How much earlier than the encoder's this rendition's decode times are written (found at the first packet).
    private var decodeShift: Int64?
    /// Reads the rendition back as it is encoded, for its SSIM-Y; nil unless asked for.
    let meter: RenditionMeter?
    /// The whole rendition's SSIM-Y, when all of it was read back.
    var ssimY: Double? { meter.flatMap { $0.limit == nil ? $0.ssim.mean : nil } }
    /// `video`, with the CPU it uses counted.
    private let timed: TimedEncoder
    /// CPU seconds this rendition's encoder used, read when it has been drained.
    private(set) var encodeCPUSeconds: Double?

    /// Where a rendition goes: an HLS folder (fMP4 segments) or one progressive MP4 with its index up front.
    enum Destination {
        case hls(directory: String)
        /// An HLS folder whose playlist is `EVENT` and rewritten (atomically) after each segment, so it is
        /// published while it grows (the provisional rendition of issue 64, `PlayableTranscoder`).
        case hlsEvent(directory: String)
        case mp4(path: String)
    }

    /// The rendition's id: the rung's, with the codec's name for codecs other than H.264, and the range's for HDR
    /// (`1080p-hevc-hlg`).
    var id: String {
        codec.renditionID(rung: rung.id) + (videoRange == .sdr ? "" : "-" + videoRange.rawValue.lowercased())
    }

    /// - Parameters:
    ///   - audio: the rung's AAC encoder, whose packets `writeAudio` takes; nil for a silent source.
    ///   - measure: read every picture back as it is encoded and measure its SSIM-Y (`meter`), each of `pools`
    ///     apart as well.
    ///   - measureFirst: without `measure`, read back only the pictures of slots below it, pooled as `pools`.
    init(
        rung: LadderPlan.Rung, codec: VideoCodec = .h264, plan: LadderPlan, preset: LadderPreset,
        destination: Destination,
        color: ColorDescription, audio: Encoder?, threads: Int, measure: Bool = false, pools: [[Range<Int64>]] = [],
        measureFirst: Int64? = nil, hdr: HDRRendition? = nil
    ) throws(AVError) {
        self.rung = rung
        self.codec = codec
        videoRange = hdr?.range ?? .sdr
        switch destination {
        case let .hls(directory), let .hlsEvent(directory): self.directory = directory
        case let .mp4(path): self.directory = (path as NSString).deletingLastPathComponent
        }
        timed = try TimedEncoder(
            Self.videoSettings(codec, rung: rung, plan: plan, preset: preset, color: color, threads: threads, hdr: hdr))
        video = timed.encoder
        meter =
            measure || measureFirst != nil
            ? try RenditionMeter(reading: video, pools: pools, limit: measure ? nil : measureFirst) : nil
        let muxer: OutputContext
        let options: [(String, String)]
        switch destination {
        case let .hls(directory), let .hlsEvent(directory):
            let type = if case .hlsEvent = destination { "event" } else { "vod" }
            muxer = try OutputContext(path: directory + "/index.m3u8", format: "hls")
            options = [
                ("hls_time", String(preset.segmentSeconds)), ("hls_segment_type", "fmp4"), ("hls_playlist_type", type),
                ("hls_flags", "independent_segments"), ("hls_fmp4_init_filename", "init.mp4"),
                ("hls_segment_filename", directory + "/seg_%03d.m4s"),
            ]
        case let .mp4(path):
            muxer = try OutputContext(path: path, format: "mp4")
            options = [("movflags", "+faststart")]
        }
        // Apple requires `hvc1` (parameter sets in the sample entry only), and Chromium plays it; ffmpeg's default is `hev1`.
        videoStream = try muxer.addStream(for: video, tag: codec == .hevc ? "hvc1" : nil)
        if let audio { audioStream = try muxer.addStream(for: audio) } else { audioStream = nil }
        self.muxer = muxer
        try muxer.writeHeader(options: options)
        packet = try Packet()
    }

    /// Each codec with fixed, closed GOPs and no scene-cut keyframes, so IDRs land on the same frames in every
    /// rendition, and the rung's CRF capped by its VBV rate.
    static func videoSettings(
        _ codec: VideoCodec, rung: LadderPlan.Rung, plan: LadderPlan, preset: LadderPreset,
        color: ColorDescription, threads: Int, hdr: HDRRendition? = nil
    ) -> EncoderSettings {
        let fps = Rational(Int32(plan.frameRate.numerator), Int32(plan.frameRate.denominator))
        let keyint = String(plan.keyframeInterval)
        let crf = VideoCodec.optionText(crf: rung.crf(codec))
        let options: [(String, String)]
        switch codec {
        case .h264:
            options = [
                ("preset", preset.x264Preset), ("profile", "high"), ("crf", crf),
                ("x264-params", "keyint=\(keyint):min-keyint=\(keyint):scenecut=0:open-gop=0"), ("forced-idr", "1"),
            ]
        case .hevc:
            options =
                [
                    ("preset", preset.hevc.preset), ("crf", crf), ("forced-idr", "1"),
                    (
                        "x265-params",
                        "keyint=\(keyint):min-keyint=\(keyint):scenecut=0:open-gop=0:pools=\(max(1, threads)):log-level=error"
                            + (hdr?.x265Parameters ?? []).map { ":" + $0 }.joined()
                    ),
                ] + (hdr == nil ? [] : [("profile", "main10")])
        case .av1:
            // irefresh-type 2: key frames (closed GOPs); scd 0: no scene-change key frames.
            options = [
                ("preset", String(preset.av1.preset)), ("crf", crf),
                ("svtav1-params", "scd=0:irefresh-type=2:lp=\(max(1, threads))"),
            ]
        }
        return EncoderSettings(
            codec: codec.encoderName,
            kind: .video(
                width: rung.width, height: rung.height, pixelFormat: hdr == nil ? .yuv420p : .yuv420p10,
                frameRate: fps),
            timeBase: fps.inverted, maxRate: Int64(rung.maxBitrateKbps) * 1000,
            bufferSize: Int64(rung.bufferKbits) * 1000,
            gopSize: plan.keyframeInterval, threads: threads, globalHeader: true, color: color, options: options)
    }

    /// Encodes the rung's scaled `picture` for output slot `index`; an IDR every keyframe interval. The picture is
    /// shared with the rung's other renditions, so this encodes a reference of its own.
    func encodeVideo(_ picture: Frame, slot index: Int64, keyframeInterval: Int) throws(AVError) {
        let frame = try picture.makeReference()
        frame.pts = index
        try meter?.expect(picture, slot: index)
        try timed.send(frame, keyframe: index % Int64(keyframeInterval) == 0)
        framesEncoded += 1
        try drainVideo()
    }

    /// Muxes one of the rung's AAC packets (a reference to it: the rung's other renditions mux the same packet).
    func writeAudio(_ encoded: Packet, timeBase: Rational) throws(AVError) {
        guard let audioStream else { return }
        try packet.reference(encoded)
        packet.streamIndex = audioStream
        packet.rescale(from: timeBase, to: try muxer.timeBase(ofStream: audioStream))
        try muxer.write(packet)
    }

    func finishVideo() throws(AVError) {
        try timed.flush()
        try drainVideo()
        try meter?.read(nil)
        encodeCPUSeconds = timed.cpuSeconds()
    }

    func writeTrailer() throws(AVError) {
        try muxer.writeTrailer()
    }

    private func drainVideo() throws(AVError) {
        while try timed.receive(into: packet) {
            try meter?.read(packet)
            packet.streamIndex = videoStream
            if packet.duration == 0 { packet.duration = 1 }
            // The first packet is the first picture (time 0): its decode time says how far this encoder reorders.
            let shift = decodeShift ?? max(0, decodeLead + min(packet.dts, 0))
            decodeShift = shift
            packet.dts -= shift
            packet.rescale(from: video.timeBase, to: try muxer.timeBase(ofStream: videoStream))
            try muxer.write(packet)
        }
    }

}
