internal import CFFmpeg

/// One opened decoder (`AVCodecContext`) for one input stream.
/// `@unchecked Sendable`: the codec context has no lock; one thread at a time sends to it and receives from it.
package final class Decoder: @unchecked Sendable {
    let context: UnsafeMutablePointer<AVCodecContext>
    package let timeBase: Rational

    init(stream: UnsafeMutablePointer<AVStream>, threads: Int, maxPixels: Int, codecWhitelist: [String]) throws(AVError)
    {
        let parameters = stream.pointee.codecpar
        guard let codec = avcodec_find_decoder(parameters!.pointee.codec_id) else {
            let name = avcodec_get_name(parameters!.pointee.codec_id).map { String(cString: $0) } ?? "unknown"
            throw AVError(
                function: "avcodec_find_decoder", message: "no decoder for \(name)", code: CFFmpeg_AVERROR(ENOSYS))
        }
        context = try allocated(avcodec_alloc_context3(codec), "avcodec_alloc_context3")
        timeBase = Rational(stream.pointee.time_base)
        // Every stored property is set: if anything below throws, deinit frees the context (freeing it in a catch
        // as well was a double free).
        try check(avcodec_parameters_to_context(context, parameters), "avcodec_parameters_to_context")
        context.pointee.pkt_timebase = stream.pointee.time_base
        if stream.pointee.codecpar.pointee.codec_type == AVMEDIA_TYPE_VIDEO {
            context.pointee.framerate = av_guess_frame_rate(nil, stream, nil)
        }
        var options = Options()
        options.set("threads", String(max(1, threads)))
        options.set("max_pixels", String(maxPixels))
        if !codecWhitelist.isEmpty { options.set("codec_whitelist", codecWhitelist.joined(separator: ",")) }
        _ = try options.withDictionary { (dictionary) throws(AVError) in
            try check(avcodec_open2(context, codec, &dictionary), "avcodec_open2")
        }
    }

    /// A decoder for what `encoder` makes (its codec and headers), to read back its packets as they come out.
    package init(decoding encoder: Encoder, threads: Int) throws(AVError) {
        let source = encoder.context
        guard let codec = avcodec_find_decoder(source.pointee.codec_id) else {
            let name = avcodec_get_name(source.pointee.codec_id).map { String(cString: $0) } ?? "unknown"
            throw AVError(
                function: "avcodec_find_decoder", message: "no decoder for \(name)", code: CFFmpeg_AVERROR(ENOSYS))
        }
        context = try allocated(avcodec_alloc_context3(codec), "avcodec_alloc_context3")
        timeBase = encoder.timeBase
        let parameters = try allocated(avcodec_parameters_alloc(), "avcodec_parameters_alloc")
        defer {
            var owned: UnsafeMutablePointer<AVCodecParameters>? = parameters
            avcodec_parameters_free(&owned)
        }
        try check(avcodec_parameters_from_context(parameters, source), "avcodec_parameters_from_context")
        try check(avcodec_parameters_to_context(context, parameters), "avcodec_parameters_to_context")
        context.pointee.pkt_timebase = source.pointee.time_base
        var options = Options()
        options.set("threads", String(max(1, threads)))
        _ = try options.withDictionary { (dictionary) throws(AVError) in
            try check(avcodec_open2(context, codec, &dictionary), "avcodec_open2(decoder of \(encoder.settings.codec))")
        }
    }

    deinit {
        var p: UnsafeMutablePointer<AVCodecContext>? = context
        avcodec_free_context(&p)
    }

    package var codecName: String { String(cString: context.pointee.codec.pointee.name) }
    package var width: Int { Int(context.pointee.width) }
    package var height: Int { Int(context.pointee.height) }
    package var pixelFormat: PixelFormat { PixelFormat(context.pointee.pix_fmt) }
    package var sampleRate: Int { Int(context.pointee.sample_rate) }

    /// Sends a packet; `nil` starts draining. `.needsInput` here means the output must be drained first.
    package func send(_ packet: Packet?) throws(AVError) -> Received {
        let result = avcodec_send_packet(context, packet?.pointer)
        if result == CFFmpeg_AVERROR_EAGAIN() { return .needsInput }
        if result == CFFmpeg_AVERROR_EOF() { return .endOfStream }
        try check(result, "avcodec_send_packet")
        return .output
    }

    /// Receives a decoded frame into `frame`.
    package func receive(into frame: Frame) throws(AVError) -> Received {
        let result = avcodec_receive_frame(context, frame.pointer)
        if result == CFFmpeg_AVERROR_EAGAIN() { return .needsInput }
        if result == CFFmpeg_AVERROR_EOF() { return .endOfStream }
        try check(result, "avcodec_receive_frame")
        return .output
    }
}
