internal import CFFmpeg

/// Owns one `SwrContext`: any decoded audio → the encoder's sample format, channel count and rate.
/// Mono and 44.1 kHz phone audio become stereo 48 kHz here.
/// `@unchecked Sendable`: the `SwrContext` keeps state, no lock; one thread (the session's audio) converts at a time.
package final class Resampler: @unchecked Sendable {
    let context: OpaquePointer
    package let outputRate: Int
    package let outputChannels: Int
    package let outputFormatRaw: Int32

    /// Configured from the first decoded frame, since only decoded frames carry the real layout.
    package init(from first: Frame, outputRate: Int, outputChannels: Int, outputFormatRaw: Int32) throws(AVError) {
        var inputLayout = AVChannelLayout()
        if first.pointer.pointee.ch_layout.order == AV_CHANNEL_ORDER_UNSPEC
            || first.pointer.pointee.ch_layout.nb_channels == 0
        {
            av_channel_layout_default(&inputLayout, max(1, first.pointer.pointee.ch_layout.nb_channels))
        } else {
            try check(av_channel_layout_copy(&inputLayout, &first.pointer.pointee.ch_layout), "av_channel_layout_copy")
        }
        defer { av_channel_layout_uninit(&inputLayout) }
        var outputLayout = AVChannelLayout()
        av_channel_layout_default(&outputLayout, Int32(outputChannels))
        defer { av_channel_layout_uninit(&outputLayout) }
        var swr: OpaquePointer? = nil
        try check(
            swr_alloc_set_opts2(
                &swr, &outputLayout, AVSampleFormat(rawValue: outputFormatRaw), Int32(outputRate),
                &inputLayout, AVSampleFormat(rawValue: first.pointer.pointee.format),
                first.pointer.pointee.sample_rate, 0, nil), "swr_alloc_set_opts2")
        context = try allocated(swr, "swr_alloc_set_opts2")
        self.outputRate = outputRate
        self.outputChannels = outputChannels
        self.outputFormatRaw = outputFormatRaw
        // Every stored property is set, so deinit frees the context if this throws.
        try check(swr_init(context), "swr_init")
    }

    deinit {
        var p: OpaquePointer? = context
        swr_free(&p)
    }

    /// Converts `frame` (or, with nil, drains what the resampler still holds). The result may hold 0 samples.
    package func convert(_ frame: Frame?) throws(AVError) -> Frame {
        let output = try Frame()
        output.pointer.pointee.sample_rate = Int32(outputRate)
        output.pointer.pointee.format = outputFormatRaw
        av_channel_layout_default(&output.pointer.pointee.ch_layout, Int32(outputChannels))
        // swr_convert_frame sizes and allocates the output itself when it has no buffers.
        try check(swr_convert_frame(context, output.pointer, frame?.pointer), "swr_convert_frame")
        return output
    }
}
