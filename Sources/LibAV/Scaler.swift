internal import CFFmpeg

/// A `SwsContext` converting one picture geometry and format into another.
package final class Scaler: @unchecked Sendable {
    package enum Filter: Sendable {
        case bilinear, bicubic, area, lanczos

        var flags: Int32 {
            switch self {
            case .bilinear: SWS_BILINEAR
            case .bicubic: SWS_BICUBIC
            case .area: SWS_AREA
            case .lanczos: SWS_LANCZOS
            }
        }
    }

    let context: OpaquePointer
    package let outputWidth: Int
    package let outputHeight: Int
    package let outputFormat: PixelFormat

    package init(
        inputWidth: Int, inputHeight: Int, inputFormat: PixelFormat,
        outputWidth: Int, outputHeight: Int, outputFormat: PixelFormat, filter: Filter
    ) throws(AVError) {
        context = try allocated(
            sws_getContext(
                Int32(inputWidth), Int32(inputHeight), inputFormat.av,
                Int32(outputWidth), Int32(outputHeight), outputFormat.av,
                filter.flags, nil, nil, nil
            ),
            "sws_getContext"
        )
        self.outputWidth = outputWidth
        self.outputHeight = outputHeight
        self.outputFormat = outputFormat
    }

    deinit { sws_freeContext(context) }

    /// Scales `source` into a new frame with this scaler's output geometry; timestamps are copied.
    package func scale(_ source: Frame) throws(AVError) -> Frame {
        let output = try Frame(width: outputWidth, height: outputHeight, pixelFormat: outputFormat)
        try check(sws_scale_frame(context, output.pointer, source.pointer), "sws_scale_frame")
        output.pointer.pointee.pts = source.pointer.pointee.pts
        return output
    }
}
