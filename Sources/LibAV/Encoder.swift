internal import CFFmpeg

/// One opened encoder (`AVCodecContext`).
/// `@unchecked Sendable`: the codec context has no lock; one thread at a time sends to it and receives from it.
package final class Encoder: @unchecked Sendable {
    let context: UnsafeMutablePointer<AVCodecContext>
    package let settings: EncoderSettings

    package init(_ settings: EncoderSettings) throws(AVError) {
        Logging.silence()
        guard let codec = avcodec_find_encoder_by_name(settings.codec) else {
            throw AVError(
                function: "avcodec_find_encoder_by_name", message: "no encoder named \(settings.codec)",
                code: CFFmpeg_AVERROR(ENOSYS))
        }
        context = try allocated(avcodec_alloc_context3(codec), "avcodec_alloc_context3")
        self.settings = settings
        // Every stored property is set, so if this throws, deinit frees the context: freeing it here as well
        // was a double free (libsvtav1 refusing an option crashed in av_opt_free).
        try configure(codec: codec)
    }

    private func configure(codec: UnsafePointer<AVCodec>) throws(AVError) {
        context.pointee.time_base = settings.timeBase.av
        switch settings.kind {
        case let .video(width, height, pixelFormat, frameRate):
            context.pointee.width = Int32(width)
            context.pointee.height = Int32(height)
            context.pointee.pix_fmt = pixelFormat.av
            context.pointee.framerate = frameRate.av
            context.pointee.sample_aspect_ratio = AVRational(num: 1, den: 1)
            if settings.gopSize > 0 { context.pointee.gop_size = Int32(settings.gopSize) }
            if let maxBFrames = settings.maxBFrames { context.pointee.max_b_frames = Int32(maxBFrames) }
            if let color = settings.color {
                context.pointee.color_range = AVColorRange(rawValue: color.range)
                context.pointee.color_primaries = AVColorPrimaries(rawValue: color.primaries)
                context.pointee.color_trc = AVColorTransferCharacteristic(rawValue: color.transfer)
                context.pointee.colorspace = AVColorSpace(rawValue: color.space)
            }
        case let .audio(sampleRate, channels):
            context.pointee.sample_rate = Int32(sampleRate)
            context.pointee.sample_fmt = codec.pointee.sample_fmts?.pointee ?? AV_SAMPLE_FMT_FLTP
            av_channel_layout_default(&context.pointee.ch_layout, Int32(channels))
        }
        if settings.bitRate > 0 { context.pointee.bit_rate = settings.bitRate }
        if settings.maxRate > 0 { context.pointee.rc_max_rate = settings.maxRate }
        if settings.bufferSize > 0 { context.pointee.rc_buffer_size = Int32(clamping: settings.bufferSize) }
        context.pointee.thread_count = Int32(max(1, settings.threads))
        if settings.globalHeader { context.pointee.flags |= AV_CODEC_FLAG_GLOBAL_HEADER }
        let options = Options(settings.options)
        let (_, unused) = try options.withDictionary { (dictionary) throws(AVError) in
            try check(avcodec_open2(context, codec, &dictionary), "avcodec_open2(\(settings.codec))")
        }
        opened = true
        if let key = unused.first {
            throw AVError(
                function: "avcodec_open2(\(settings.codec))", message: "unknown option \(key)",
                code: CFFmpeg_AVERROR(EINVAL))
        }
    }

    /// Whether avcodec_open2 succeeded, and whether draining was asked for (`send(nil)`).
    private var opened = false
    private var draining = false
    private var picturesSent = 0

    deinit {
        // SVT-AV1 1.4 (FFmpeg 5.1) waits forever in svt_av1_enc_deinit for an end of stream it was never sent, and
        // waits forever for the packets of an end of stream sent before any picture: an encoder dropped on an error
        // path hung the process. Give it a picture if it had none, then drain it; a drained one frees at once.
        if settings.codec == "libsvtav1", opened, !draining {
            if picturesSent == 0, case let .video(width, height, format, _) = settings.kind,
                let picture = try? Frame(width: width, height: height, pixelFormat: format)
            {
                picture.pts = 0
                _ = avcodec_send_frame(context, picture.pointer)
            }
            if avcodec_send_frame(context, nil) >= 0, let packet = av_packet_alloc() {
                while avcodec_receive_packet(context, packet) >= 0 { av_packet_unref(packet) }
                var owned: UnsafeMutablePointer<AVPacket>? = packet
                av_packet_free(&owned)
            }
        }
        var p: UnsafeMutablePointer<AVCodecContext>? = context
        avcodec_free_context(&p)
    }

    package var timeBase: Rational { Rational(context.pointee.time_base) }
    /// Samples per audio frame the encoder requires (1024 for AAC); 0 for video or variable-size codecs.
    package var frameSize: Int { Int(context.pointee.frame_size) }
    /// Priming samples an audio encoder puts before the first input sample (1024 for FFmpeg's AAC).
    package var initialPadding: Int { Int(context.pointee.initial_padding) }
    package var sampleRate: Int { Int(context.pointee.sample_rate) }
    package var sampleFormatRaw: Int32 { context.pointee.sample_fmt.rawValue }
    /// The codec headers (avcC for H.264, AudioSpecificConfig for AAC) after open.
    package var extradata: [UInt8] {
        guard let data = context.pointee.extradata, context.pointee.extradata_size > 0 else { return [] }
        return Array(UnsafeBufferPointer(start: data, count: Int(context.pointee.extradata_size)))
    }
    package var profile: Int { Int(context.pointee.profile) }
    /// How many frames decode order may run ahead of presentation (B-frame reordering), as the encoder declares it.
    package var reorderDelay: Int { Int(context.pointee.has_b_frames) }

    /// Sends a frame; `nil` starts draining.
    package func send(_ frame: Frame?) throws(AVError) -> Received {
        if frame == nil { draining = true } else { picturesSent += 1 }
        let result = avcodec_send_frame(context, frame?.pointer)
        if result == CFFmpeg_AVERROR_EAGAIN() { return .needsInput }
        if result == CFFmpeg_AVERROR_EOF() { return .endOfStream }
        try check(result, "avcodec_send_frame(\(settings.codec))")
        return .output
    }

    /// Receives an encoded packet, in the encoder's time base.
    package func receive(into packet: Packet) throws(AVError) -> Received {
        let result = avcodec_receive_packet(context, packet.pointer)
        if result == CFFmpeg_AVERROR_EAGAIN() { return .needsInput }
        if result == CFFmpeg_AVERROR_EOF() { return .endOfStream }
        try check(result, "avcodec_receive_packet(\(settings.codec))")
        return .output
    }
}
