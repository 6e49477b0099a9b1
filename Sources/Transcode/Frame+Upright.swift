internal import LibAV

extension Frame {
    /// This decoded picture turned upright by the display matrix's clockwise `rotation` (0, 90, 180, 270), as
    /// yuv420p when it had to be turned; a reference to the same picture when it is upright already. The ladder and
    /// its rate probes turn each picture once, before any rung scales it.
    /// `depth10` keeps 10 bits (an HDR rendition's pictures): turned as yuv420p10 instead.
    func upright(rotation: Int, depth10: Bool = false) throws(AVError) -> Frame {
        guard rotation != 0 else { return try makeReference() }
        var source = self
        let format: PixelFormat = depth10 ? .yuv420p10 : .yuv420p
        if pixelFormat != format {
            let converter = try Scaler(
                inputWidth: width, inputHeight: height, inputFormat: pixelFormat,
                outputWidth: width, outputHeight: height, outputFormat: format, filter: .lanczos)
            source = try converter.scale(self)
            source.colorDescription = colorDescription
        }
        return try source.rotated(clockwise: rotation)
    }
}
