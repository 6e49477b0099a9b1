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
        let toPlanar = try Scaler(
            inputWidth: width, inputHeight: height, inputFormat: .rgba,
            outputWidth: width, outputHeight: height, outputFormat: planarFormat, filter: .lanczos)
        let planar = try toPlanar.scale(input)
        let resize = try Scaler(
            inputWidth: width, inputHeight: height, inputFormat: planarFormat,
            outputWidth: toWidth, outputHeight: toHeight, outputFormat: planarFormat, filter: .lanczos)
        return try resize.scale(planar).packedRGBA()
    }
}

extension Scaler {
    /// Resizes planar 8-bit RGB (R, G and B planes with their row `strides`, as libheif hands them out) with a
    /// Lanczos filter and returns tightly packed RGBA with alpha 255: the planes go straight into swscale's planar
    /// GBR, with no packing and unpacking around the resize.
    /// - Throws: `AVError` naming the swscale call that failed, or the wrapper's own check of the plane sizes.
    package static func resizePlanarRGB(
        _ planes: [[UInt8]], strides: [Int], width: Int, height: Int, toWidth: Int, toHeight: Int
    ) throws(AVError) -> [UInt8] {
        guard planes.count == 3, strides.count == 3,
            (0..<3).allSatisfy({ strides[$0] >= width && planes[$0].count >= strides[$0] * (height - 1) + width })
        else {
            throw AVError(
                function: "Scaler.resizePlanarRGB", message: "the planes are too small for \(width)x\(height)")
        }
        let resize = try Scaler(
            inputWidth: width, inputHeight: height, inputFormat: .gbrp,
            outputWidth: toWidth, outputHeight: toHeight, outputFormat: .gbrp, filter: .lanczos)
        let output = try Frame(width: toWidth, height: toHeight, pixelFormat: .gbrp)
        // swscale's planar GBR is G, B, R in that order.
        let rows = planes[1].withUnsafeBufferPointer { g in
            planes[2].withUnsafeBufferPointer { b in
                planes[0].withUnsafeBufferPointer { r in
                    let sources: [UnsafePointer<UInt8>?] = [g.baseAddress, b.baseAddress, r.baseAddress, nil]
                    let targets: [UnsafeMutablePointer<UInt8>?] =
                        (0..<3).map { CFFmpeg_frame_plane(output.pointer, Int32($0)) } + [nil]
                    let targetStrides: [Int32] = (0..<3).map { CFFmpeg_frame_linesize(output.pointer, Int32($0)) } + [0]
                    return sws_scale(
                        resize.context, sources, [Int32(strides[1]), Int32(strides[2]), Int32(strides[0]), 0], 0,
                        Int32(height), targets, targetStrides)
                }
            }
        }
        try check(rows, "sws_scale")
        return try output.packedRGBA()
    }
}
