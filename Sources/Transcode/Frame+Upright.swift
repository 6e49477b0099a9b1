internal import LibAV

extension Frame {
    /// This decoded picture turned upright by the display matrix's clockwise `rotation` (0, 90, 180, 270), as
    /// yuv420p when it had to be turned; a reference to the same picture when it is upright already. The ladder and
    /// its rate probes turn each picture once, before any rung scales it.
    func upright(rotation: Int) throws(AVError) -> Frame {
        guard rotation != 0 else { return try makeReference() }
        var source = self
        if pixelFormat != .yuv420p {
            let converter = try Scaler(
                inputWidth: width, inputHeight: height, inputFormat: pixelFormat,
                outputWidth: width, outputHeight: height, outputFormat: .yuv420p, filter: .lanczos)
            source = try converter.scale(self)
            source.colorDescription = colorDescription
        }
        return try source.rotated(clockwise: rotation)
    }
}
