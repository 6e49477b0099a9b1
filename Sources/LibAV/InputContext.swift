internal import CFFmpeg
internal import Foundation

/// How an untrusted input is opened: which demuxer, and what it may do.
package struct InputPolicy: Sendable {
    /// The demuxer Reel chose from its own magic-byte sniffing (e.g. "mov", "matroska", "png_pipe").
    package var format: String
    /// Demuxers allowed at all, nested ones included.
    package var formatWhitelist: [String]
    /// Decoders allowed while probing and decoding.
    package var codecWhitelist: [String]
    package var maxStreams: Int
    package var probeSize: Int
    package var analyzeDurationMicroseconds: Int
    /// Pixel cap for the decoders `avformat_find_stream_info` opens, so probing cannot be a pixel bomb.
    package var maxPixels: Int

    package init(
        format: String, formatWhitelist: [String], codecWhitelist: [String], maxStreams: Int,
        maxPixels: Int, probeSize: Int = 5_000_000, analyzeDurationMicroseconds: Int = 5_000_000
    ) {
        self.maxPixels = maxPixels
        self.format = format
        self.formatWhitelist = formatWhitelist
        self.codecWhitelist = codecWhitelist
        self.maxStreams = maxStreams
        self.probeSize = probeSize
        self.analyzeDurationMicroseconds = analyzeDurationMicroseconds
    }
}

/// One opened input file: owns the `AVFormatContext` and the `AVIOContext` Reel opened for it.
///
/// The file is opened by Reel (`file` protocol only), the demuxer is fixed, nested opens are denied and
/// the format/protocol whitelists are set too, so a playlist disguised as a video can reach nothing else.
/// `@unchecked Sendable`: one thread at a time demuxes; `streams` is immutable and `io` only touched by init/deinit.
package final class InputContext: @unchecked Sendable {
    let pointer: UnsafeMutablePointer<AVFormatContext>
    private var io: UnsafeMutablePointer<AVIOContext>?
    package let streams: [StreamInfo]

    package init(path: String, policy: InputPolicy) throws(AVError) {
        Logging.silence()
        guard let inputFormat = av_find_input_format(policy.format) else {
            throw AVError(function: "av_find_input_format", message: "no demuxer named \(policy.format)")
        }
        // "file:" keeps the name from ever selecting another protocol ("concat:", "http:") or a pattern.
        let url = "file:" + path
        var ioContext: UnsafeMutablePointer<AVIOContext>? = nil
        let ioOptions = Options([("protocol_whitelist", "file")])
        _ = try ioOptions.withDictionary { (dictionary) throws(AVError) in
            try check(avio_open2(&ioContext, url, AVIO_FLAG_READ, nil, &dictionary), "avio_open2")
        }
        guard let ioContext else { throw AVError(function: "avio_open2", message: "no I/O context") }

        guard var context = avformat_alloc_context() else {
            var closing: UnsafeMutablePointer<AVIOContext>? = ioContext
            avio_closep(&closing)
            throw AVError(function: "avformat_alloc_context", message: "allocation failed")
        }
        context.pointee.pb = ioContext
        CFFmpeg_forbid_nested_opens(context)

        var options = Options()
        options.set("protocol_whitelist", "file")
        options.set("format_whitelist", policy.formatWhitelist.joined(separator: ","))
        options.set("codec_whitelist", policy.codecWhitelist.joined(separator: ","))
        options.set("max_streams", String(policy.maxStreams))
        options.set("probesize", String(policy.probeSize))
        options.set("analyzeduration", String(policy.analyzeDurationMicroseconds))
        var contextPointer: UnsafeMutablePointer<AVFormatContext>? = context
        do {
            _ = try options.withDictionary { (dictionary) throws(AVError) in
                try check(avformat_open_input(&contextPointer, url, inputFormat, &dictionary), "avformat_open_input")
            }
        } catch {
            // avformat_open_input frees the context on failure; the custom I/O context stays ours.
            var closing: UnsafeMutablePointer<AVIOContext>? = ioContext
            avio_closep(&closing)
            throw error
        }
        context = contextPointer!
        pointer = context
        io = ioContext
        do {
            try InputContext.findStreamInfo(context, maxPixels: policy.maxPixels, codecWhitelist: policy.codecWhitelist)
        } catch {
            var closingContext: UnsafeMutablePointer<AVFormatContext>? = context
            avformat_close_input(&closingContext)
            var closing: UnsafeMutablePointer<AVIOContext>? = ioContext
            avio_closep(&closing)
            throw error
        }
        streams = (0..<Int(context.pointee.nb_streams)).map {
            InputContext.describe(context.pointee.streams[$0]!, index: $0)
        }
    }

    /// Runs `avformat_find_stream_info` with the pixel cap and codec whitelist on every probing decoder.
    private static func findStreamInfo(
        _ context: UnsafeMutablePointer<AVFormatContext>, maxPixels: Int, codecWhitelist: [String]
    ) throws(AVError) {
        let count = Int(context.pointee.nb_streams)
        var dictionaries = [OpaquePointer?](repeating: nil, count: max(count, 1))
        defer { for i in dictionaries.indices { av_dict_free(&dictionaries[i]) } }
        for i in 0..<count {
            try check(av_dict_set(&dictionaries[i], "max_pixels", String(maxPixels), 0), "av_dict_set(max_pixels)")
            try check(av_dict_set(&dictionaries[i], "threads", "1", 0), "av_dict_set(threads)")
            if !codecWhitelist.isEmpty {
                try check(
                    av_dict_set(&dictionaries[i], "codec_whitelist", codecWhitelist.joined(separator: ","), 0),
                    "av_dict_set(codec_whitelist)")
            }
        }
        let result = dictionaries.withUnsafeMutableBufferPointer { buffer in
            avformat_find_stream_info(context, buffer.baseAddress)
        }
        try check(result, "avformat_find_stream_info")
    }

    deinit {
        var context: UnsafeMutablePointer<AVFormatContext>? = pointer
        avformat_close_input(&context)
        avio_closep(&io)
    }

    /// Container duration in seconds, or nil when the container does not say.
    package var durationSeconds: Double? {
        let duration = pointer.pointee.duration
        return duration == noTimestamp || duration <= 0 ? nil : Double(duration) / 1_000_000
    }

    package var bitRate: Int64 { pointer.pointee.bit_rate }
    package var metadata: [String: String] { dictionaryEntries(pointer.pointee.metadata) }

    /// The largest byte offset any index entry points past, to detect a file cut short.
    package var indexedEndOffset: Int64 {
        var end: Int64 = 0
        for i in 0..<Int(pointer.pointee.nb_streams) {
            guard let stream = pointer.pointee.streams[i] else { continue }
            let count = avformat_index_get_entries_count(stream)
            guard count > 0, let last = avformat_index_get_entry(stream, count - 1) else { continue }
            // Entries are sorted by time, not position: scan them all for the furthest.
            for j in 0..<count {
                guard let entry = avformat_index_get_entry(stream, j) else { continue }
                // Positions come from the file (an MP4's co64 offsets are 64-bit): one near Int64.max points past
                // any file, so the sum saturates instead of trapping.
                let (entryEnd, overflow) = entry.pointee.pos.addingReportingOverflow(Int64(entry.pointee.size))
                end = max(end, overflow ? .max : entryEnd)
            }
            _ = last
        }
        return end
    }

    /// Best stream of a type as libav picks it (the default/largest), or nil.
    package func bestStream(_ type: StreamInfo.MediaType) -> Int? {
        let mediaType: AVMediaType = type == .video ? AVMEDIA_TYPE_VIDEO : AVMEDIA_TYPE_AUDIO
        let index = av_find_best_stream(pointer, mediaType, -1, -1, nil, 0)
        return index >= 0 ? Int(index) : nil
    }

    /// Keeps the demuxer from returning packets of streams Reel does not use.
    package func discardAll(except kept: Set<Int>) {
        for i in 0..<Int(pointer.pointee.nb_streams) where !kept.contains(i) {
            pointer.pointee.streams[i]?.pointee.discard = AVDISCARD_ALL
        }
    }

    /// Reads the next packet into `packet`; `.endOfStream` at the end of the file.
    package func read(into packet: Packet) throws(AVError) -> Received {
        let result = av_read_frame(pointer, packet.pointer)
        if result == CFFmpeg_AVERROR_EOF() { return .endOfStream }
        if result == CFFmpeg_AVERROR_EAGAIN() { return .needsInput }
        try check(result, "av_read_frame")
        return .output
    }

    /// Moves reading to the key frame at or before `seconds` into the stream (from its start time), so decoding
    /// from there reaches that time. A decoder fed before the seek must be replaced: it holds pictures from before.
    package func seek(toSeconds seconds: Double, streamIndex index: Int) throws(AVError) {
        let stream = try checkedStream(at: index, of: pointer, "av_seek_frame")
        let start = stream.pointee.start_time == noTimestamp ? 0 : stream.pointee.start_time
        // The time base and start time are the file's: a position they cannot express is an error, not a trap.
        let ticks = (seconds / Rational(stream.pointee.time_base).doubleValue).rounded(.down)
        guard let offset = Int64(exactly: ticks), case let (timestamp, false) = start.addingReportingOverflow(offset)
        else {
            throw AVError(
                function: "av_seek_frame",
                message:
                    "\(seconds) s is not a 64-bit timestamp in stream \(index)'s time base from its start \(start)",
                code: CFFmpeg_AVERROR(EINVAL))
        }
        _ = try check(av_seek_frame(pointer, Int32(index), timestamp, AVSEEK_FLAG_BACKWARD), "av_seek_frame")
    }

    /// A stream's time base, as the demuxer set it.
    /// - Throws: `AVError` when `index` names no stream.
    package func timeBase(ofStream index: Int) throws(AVError) -> Rational {
        Rational(try checkedStream(at: index, of: pointer, "timeBase(ofStream:)").pointee.time_base)
    }

    /// Opens a decoder for a stream, with a pixel cap and a bounded thread count.
    /// - Throws: `AVError` when `streamIndex` names no stream or the decoder does not open.
    package func makeDecoder(
        streamIndex: Int, threads: Int, maxPixels: Int, codecWhitelist: [String]
    ) throws(AVError) -> Decoder {
        try Decoder(
            stream: try checkedStream(at: streamIndex, of: pointer, "makeDecoder(streamIndex:)"), threads: threads,
            maxPixels: maxPixels,
            codecWhitelist: codecWhitelist
        )
    }

    private static func describe(_ stream: UnsafeMutablePointer<AVStream>, index: Int) -> StreamInfo {
        let parameters = stream.pointee.codecpar.pointee
        let mediaType: StreamInfo.MediaType
        switch parameters.codec_type {
        case AVMEDIA_TYPE_VIDEO: mediaType = .video
        case AVMEDIA_TYPE_AUDIO: mediaType = .audio
        case AVMEDIA_TYPE_SUBTITLE: mediaType = .subtitle
        case AVMEDIA_TYPE_DATA: mediaType = .data
        case AVMEDIA_TYPE_ATTACHMENT: mediaType = .attachment
        default: mediaType = .unknown
        }
        let codecName = avcodec_get_name(parameters.codec_id).map { String(cString: $0) } ?? "unknown"
        let profileName = avcodec_profile_name(parameters.codec_id, parameters.profile).map { String(cString: $0) }
        var found: Int32 = 0
        let angle = CFFmpeg_stream_rotation(stream, &found)
        var rotation = 0
        if found != 0, angle.isFinite {
            // libav gives counterclockwise degrees; players rotate clockwise by the negation.
            rotation = ((-Int(angle.rounded()) % 360) + 360) % 360
            rotation = (rotation + 45) / 90 * 90 % 360
        }
        let timeBase = Rational(stream.pointee.time_base)
        let duration = stream.pointee.duration
        let start = stream.pointee.start_time
        return StreamInfo(
            index: index,
            mediaType: mediaType,
            codecName: codecName,
            profileName: profileName,
            pixelFormat: mediaType == .video && parameters.format >= 0 ? PixelFormat(rawValue: parameters.format) : nil,
            width: Int(parameters.width),
            height: Int(parameters.height),
            rotation: rotation,
            averageFrameRate: Rational(stream.pointee.avg_frame_rate),
            realFrameRate: Rational(stream.pointee.r_frame_rate),
            frameCount: stream.pointee.nb_frames,
            timeBase: timeBase,
            durationSeconds: duration == noTimestamp || duration <= 0 ? nil : Double(duration) * timeBase.doubleValue,
            startTimeSeconds: start == noTimestamp ? nil : Double(start) * timeBase.doubleValue,
            sampleRate: Int(parameters.sample_rate),
            channelCount: Int(parameters.ch_layout.nb_channels),
            bitRate: parameters.bit_rate,
            isAttachedPicture: stream.pointee.disposition & AV_DISPOSITION_ATTACHED_PIC != 0
        )
    }
}
