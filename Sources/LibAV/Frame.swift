internal import CFFmpeg

/// One owned `AVFrame` (video or audio).
/// `@unchecked Sendable`: one thread writes the `AVFrame` at a time; readers come after, each with its own reference.
package final class Frame: @unchecked Sendable {
    let pointer: UnsafeMutablePointer<AVFrame>

    package init() throws(AVError) {
        pointer = try allocated(av_frame_alloc(), "av_frame_alloc")
    }

    /// A video frame with its own buffers, for generated pictures and scaler output.
    package convenience init(width: Int, height: Int, pixelFormat: PixelFormat) throws(AVError) {
        try self.init()
        pointer.pointee.width = Int32(width)
        pointer.pointee.height = Int32(height)
        pointer.pointee.format = pixelFormat.rawValue
        try check(av_frame_get_buffer(pointer, 0), "av_frame_get_buffer")
    }

    /// An audio frame with its own buffers in the given sample format (a libav `AVSampleFormat` value).
    package convenience init(sampleCount: Int, sampleFormatRaw: Int32, channels: Int, sampleRate: Int) throws(AVError) {
        try self.init()
        pointer.pointee.nb_samples = Int32(sampleCount)
        pointer.pointee.format = sampleFormatRaw
        pointer.pointee.sample_rate = Int32(sampleRate)
        av_channel_layout_default(&pointer.pointee.ch_layout, Int32(channels))
        try check(av_frame_get_buffer(pointer, 0), "av_frame_get_buffer")
    }

    deinit {
        var p: UnsafeMutablePointer<AVFrame>? = pointer
        av_frame_free(&p)
    }

    package var width: Int { Int(pointer.pointee.width) }
    package var height: Int { Int(pointer.pointee.height) }
    package var pixelFormat: PixelFormat { PixelFormat(rawValue: pointer.pointee.format) }
    package var pts: Int64 {
        get { pointer.pointee.pts }
        set { pointer.pointee.pts = newValue }
    }
    /// The decoder's best guess of the presentation time, which survives missing pts.
    package var bestEffortTimestamp: Int64 { pointer.pointee.best_effort_timestamp }
    package var sampleCount: Int { Int(pointer.pointee.nb_samples) }
    package var sampleRate: Int { Int(pointer.pointee.sample_rate) }
    package var channelCount: Int { Int(pointer.pointee.ch_layout.nb_channels) }
    package var isKeyframe: Bool { pointer.pointee.key_frame != 0 }
    package var metadata: [String: String] { dictionaryEntries(pointer.pointee.metadata) }

    /// Marks the next encoded picture as an IDR (or lets the encoder decide when false).
    package func forceKeyframe(_ force: Bool) {
        pointer.pointee.pict_type = force ? AV_PICTURE_TYPE_I : AV_PICTURE_TYPE_NONE
    }

    package func unref() { av_frame_unref(pointer) }

    /// Makes the buffers writable (copying if shared with another reference).
    package func makeWritable() throws(AVError) {
        try check(av_frame_make_writable(pointer), "av_frame_make_writable")
    }

    /// A new reference to the same buffers, for handing one decoded frame to several consumers.
    package func makeReference() throws(AVError) -> Frame {
        let copy = try Frame()
        try check(av_frame_ref(copy.pointer, pointer), "av_frame_ref")
        return copy
    }

    package func linesize(_ plane: Int) -> Int { Int(CFFmpeg_frame_linesize(pointer, Int32(plane))) }

    /// Reads or writes one plane's bytes row by row; `body` gets (row buffer, row index).
    package func withPlane<R>(_ plane: Int, _ body: (UnsafeMutablePointer<UInt8>, Int) throws -> R) rethrows -> R {
        try body(CFFmpeg_frame_plane(pointer, Int32(plane)), linesize(plane))
    }

    /// Colour tags, copied to encoders so players show the right colours.
    package var colorDescription: ColorDescription {
        get {
            ColorDescription(
                range: pointer.pointee.color_range.rawValue,
                primaries: pointer.pointee.color_primaries.rawValue,
                transfer: pointer.pointee.color_trc.rawValue,
                space: pointer.pointee.colorspace.rawValue
            )
        }
        set {
            pointer.pointee.color_range = AVColorRange(rawValue: newValue.range)
            pointer.pointee.color_primaries = AVColorPrimaries(rawValue: newValue.primaries)
            pointer.pointee.color_trc = AVColorTransferCharacteristic(rawValue: newValue.transfer)
            pointer.pointee.colorspace = AVColorSpace(rawValue: newValue.space)
        }
    }
}

/// Raw libav colour enums, carried as numbers so domain code need not import C.
package struct ColorDescription: Sendable, Equatable {
    package var range: UInt32
    package var primaries: UInt32
    package var transfer: UInt32
    package var space: UInt32

    package init(range: UInt32, primaries: UInt32, transfer: UInt32, space: UInt32) {
        self.range = range
        self.primaries = primaries
        self.transfer = transfer
        self.space = space
    }

    /// BT.709 limited range, the tags Reel writes for SDR output.
    package static let bt709 = ColorDescription(
        range: AVCOL_RANGE_MPEG.rawValue, primaries: AVCOL_PRI_BT709.rawValue,
        transfer: AVCOL_TRC_BT709.rawValue, space: AVCOL_SPC_BT709.rawValue
    )
}
