internal import CFFmpeg

/// One output file or HLS rendition: owns the muxer context and, unless the muxer opens its own files, the I/O.
/// `@unchecked Sendable`: the muxer has no lock; one thread at a time adds streams and writes (and sets the flags).
package final class OutputContext: @unchecked Sendable {
    let pointer: UnsafeMutablePointer<AVFormatContext>
    private var headerWritten = false
    private var trailerWritten = false

    /// - Parameters:
    ///   - path: the output file (for `hls`, the media playlist).
    ///   - format: the muxer name ("mp4", "hls", "mov", "matroska", "image2", ...).
    package init(path: String, format: String) throws(AVError) {
        Logging.silence()
        var context: UnsafeMutablePointer<AVFormatContext>? = nil
        try check(
            avformat_alloc_output_context2(&context, nil, format, path), "avformat_alloc_output_context2(\(format))")
        pointer = try allocated(context, "avformat_alloc_output_context2")
        if pointer.pointee.oformat.pointee.flags & AVFMT_NOFILE == 0 {
            // Every stored property is set, so deinit frees the context if this throws (pb stays nil).
            try check(avio_open(&pointer.pointee.pb, path, AVIO_FLAG_WRITE), "avio_open(\(path))")
        }
    }

    deinit {
        if headerWritten && !trailerWritten { av_write_trailer(pointer) }
        if pointer.pointee.oformat.pointee.flags & AVFMT_NOFILE == 0 { avio_closep(&pointer.pointee.pb) }
        avformat_free_context(pointer)
    }

    /// Adds a stream carrying an encoder's output; returns its index.
    /// - Parameter tag: the sample entry's four characters when the codec has more than one (`hvc1`, which Apple
    ///   requires, rather than the muxer's default `hev1`); nil for the muxer's choice.
    package func addStream(for encoder: Encoder, tag: String? = nil) throws(AVError) -> Int {
        let stream = try allocated(avformat_new_stream(pointer, nil), "avformat_new_stream")
        try check(
            avcodec_parameters_from_context(stream.pointee.codecpar, encoder.context), "avcodec_parameters_from_context"
        )
        if let tag {
            let bytes = Array(tag.utf8)
            guard bytes.count == 4 else {
                throw AVError(
                    function: "avformat_new_stream", message: "a sample entry tag has four characters, got \"\(tag)\"",
                    code: CFFmpeg_AVERROR(EINVAL))
            }
            stream.pointee.codecpar.pointee.codec_tag =
                UInt32(bytes[0]) | UInt32(bytes[1]) << 8 | UInt32(bytes[2]) << 16 | UInt32(bytes[3]) << 24
        }
        stream.pointee.time_base = encoder.context.pointee.time_base
        if encoder.context.pointee.codec_type == AVMEDIA_TYPE_VIDEO {
            stream.pointee.avg_frame_rate = encoder.context.pointee.framerate
        }
        return Int(stream.pointee.index)
    }

    /// Adds a stream that will receive packets copied unchanged from an input stream (remux).
    package func addStream(copying streamIndex: Int, of input: InputContext) throws(AVError) -> Int {
        let source = try checkedStream(at: streamIndex, of: input.pointer, "addStream(copying:)")
        let stream = try allocated(avformat_new_stream(pointer, nil), "avformat_new_stream")
        try check(avcodec_parameters_copy(stream.pointee.codecpar, source.pointee.codecpar), "avcodec_parameters_copy")
        stream.pointee.codecpar.pointee.codec_tag = 0
        stream.pointee.time_base = source.pointee.time_base
        return Int(stream.pointee.index)
    }

    /// Writes a display matrix on a stream, so players rotate it by `degrees` clockwise.
    package func setRotation(streamIndex: Int, degrees: Int) throws(AVError) {
        let stream = try checkedStream(at: streamIndex, of: pointer, "setRotation(streamIndex:)")
        let raw = try allocated(
            av_stream_new_side_data(stream, AV_PKT_DATA_DISPLAYMATRIX, 9 * MemoryLayout<Int32>.size),
            "av_stream_new_side_data"
        )
        raw.withMemoryRebound(to: Int32.self, capacity: 9) { matrix in
            av_display_rotation_set(matrix, Double(degrees))
        }
    }

    package func setMetadata(_ key: String, _ value: String) throws(AVError) {
        try check(av_dict_set(&pointer.pointee.metadata, key, value, 0), "av_dict_set(\(key))")
    }

    /// The time base the muxer chose for a stream (valid after `writeHeader`).
    /// - Throws: `AVError` when `index` names no stream.
    package func timeBase(ofStream index: Int) throws(AVError) -> Rational {
        Rational(try checkedStream(at: index, of: pointer, "timeBase(ofStream:)").pointee.time_base)
    }

    /// Writes the header with muxer options (e.g. `movflags`, `hls_time`); unknown options are an error.
    package func writeHeader(options: [(String, String)] = []) throws(AVError) {
        let (_, unused) = try Options(options).withDictionary { (dictionary) throws(AVError) in
            try check(avformat_write_header(pointer, &dictionary), "avformat_write_header")
        }
        headerWritten = true
        if let key = unused.first {
            throw AVError(
                function: "avformat_write_header", message: "unknown option \(key)", code: CFFmpeg_AVERROR(EINVAL))
        }
    }

    /// Writes a packet whose timestamps are already in the stream's time base.
    package func write(_ packet: Packet) throws(AVError) {
        try check(av_interleaved_write_frame(pointer, packet.pointer), "av_interleaved_write_frame")
    }

    package func writeTrailer() throws(AVError) {
        trailerWritten = true
        try check(av_write_trailer(pointer), "av_write_trailer")
    }
}
