internal import CFFmpeg

extension Scaler {
    /// Resizes packed RGBA with a Lanczos filter. Scaling runs on planar GBR(A) so swscale never detours through
    /// subsampled chroma, and each plane is filtered independently at full resolution. `hasAlpha: false` skips
    /// the alpha plane (a quarter of the work) and returns alpha 255.
    package static func resizeRGBA(
        _ pixels: [UInt8], width: Int, height: Int, toWidth: Int, toHeight: Int, hasAlpha: Bool = true
    ) throws(AVError) -> [UInt8] {
        if width == toWidth && height == toHeight { return pixels }
        let planarFormat: PixelFormat = hasAlpha ? .gbrap : .gbrp
        let input = try Frame(rgba: pixels, width: width, height: height)
        let toPlanar = try Scaler(inputWidth: width, inputHeight: height, inputFormat: .rgba,
                                  outputWidth: width, outputHeight: height, outputFormat: planarFormat, filter: .lanczos)
        let planar = try toPlanar.scale(input)
        let resize = try Scaler(inputWidth: width, inputHeight: height, inputFormat: planarFormat,
                                outputWidth: toWidth, outputHeight: toHeight, outputFormat: planarFormat, filter: .lanczos)
        return try resize.scale(planar).packedRGBA()
    }
}
