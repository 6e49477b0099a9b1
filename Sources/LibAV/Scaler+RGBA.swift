internal import CFFmpeg

extension Scaler {
    /// Resizes packed RGBA with a Lanczos filter. Scaling runs on planar GBRA so swscale never detours through
    /// subsampled chroma, and each plane is filtered independently at full resolution.
    package static func resizeRGBA(
        _ pixels: [UInt8], width: Int, height: Int, toWidth: Int, toHeight: Int
    ) throws(AVError) -> [UInt8] {
        if width == toWidth && height == toHeight { return pixels }
        let input = try Frame(rgba: pixels, width: width, height: height)
        let toPlanar = try Scaler(inputWidth: width, inputHeight: height, inputFormat: .rgba,
                                  outputWidth: width, outputHeight: height, outputFormat: .gbrap, filter: .lanczos)
        let planar = try toPlanar.scale(input)
        let resize = try Scaler(inputWidth: width, inputHeight: height, inputFormat: .gbrap,
                                outputWidth: toWidth, outputHeight: toHeight, outputFormat: .gbrap, filter: .lanczos)
        return try resize.scale(planar).packedRGBA()
    }
}
