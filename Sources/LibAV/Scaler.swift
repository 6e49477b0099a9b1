internal import CFFmpeg

/// A `SwsContext` converting one picture geometry and format into another.
/// `@unchecked Sendable`: `sws_scale` changes the context; one thread at a time scales (each rung has its own).
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

    /// Reads Y'CbCr input with the matrix and range its tags state (BT.709, BT.2020 or BT.601; limited or full), not
    /// swscale's default of BT.601 limited range: a BT.709 picture turned into RGB with BT.601's weights shifts its
    /// hues (reds toward orange, greens toward yellow). Output stays full-range RGB.
    /// - Throws: `AVError` when swscale refuses the coefficients.
    package func readInput(as colour: ColorDescription) throws(AVError) {
        let space: Int32
        switch AVColorSpace(rawValue: colour.space) {
        case AVCOL_SPC_BT709: space = SWS_CS_ITU709
        case AVCOL_SPC_BT2020_NCL, AVCOL_SPC_BT2020_CL: space = SWS_CS_BT2020
        default: return
        }
        let fullRange: Int32 = colour.range == AVCOL_RANGE_JPEG.rawValue ? 1 : 0
        try check(
            sws_setColorspaceDetails(
                context, sws_getCoefficients(space), fullRange, sws_getCoefficients(SWS_CS_DEFAULT), 1, 0, 1 << 16,
                1 << 16),
            "sws_setColorspaceDetails")
    }

    /// Scales `source` into a new frame with this scaler's output geometry; timestamps are copied.
    package func scale(_ source: Frame) throws(AVError) -> Frame {
        let output = try Frame(width: outputWidth, height: outputHeight, pixelFormat: outputFormat)
        try check(sws_scale_frame(context, output.pointer, source.pointer), "sws_scale_frame")
        output.pointer.pointee.pts = source.pointer.pointee.pts
        return output
    }
}
