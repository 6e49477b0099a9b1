internal import CFFmpeg

extension Scaler {
    /// Resizes 8-bit planar YCbCr (BT.601) into limited-range 4:2:0, the layout lossy WebP and most video codecs
    /// take, without a round trip through RGB. Luma goes through a Lanczos filter, as the RGB path and common
    /// references resize; chroma through a bilinear one, about as soft as an RGB→YUV 4:2:0 conversion leaves it
    /// (measured on phone photos: Lanczos chroma cost 5–9 % more WebP bytes at the same luma SSIM).
    ///
    /// `planes` are Y, Cb, Cr with their row `strides`; chroma planes are `ceil(width / 2^horizontal)` by
    /// `ceil(height / 2^vertical)`, for any `chromaShift` up to (1, 1). Each plane is scaled on its own sample grid,
    /// which keeps chroma centred between luma samples, as in JPEG and WebP. The output planes are tightly packed:
    /// Y is `toWidth` by `toHeight`, Cb and Cr `ceil(toWidth / 2)` by `ceil(toHeight / 2)`.
    /// - Throws: `AVError` naming the swscale call that failed, or the wrapper's own check of the plane sizes.
    package static func resizeYUV(
        _ planes: [[UInt8]], strides: [Int], width: Int, height: Int, chromaShift: (horizontal: Int, vertical: Int),
        isFullRange: Bool, toWidth: Int, toHeight: Int
    ) throws(AVError) -> [[UInt8]] {
        guard (0...1).contains(chromaShift.horizontal), (0...1).contains(chromaShift.vertical) else {
            throw AVError(function: "Scaler.resizeYUV", message: "chroma subsampling \(chromaShift) is not supported")
        }
        let chromaWidth = (width + (1 << chromaShift.horizontal) - 1) >> chromaShift.horizontal
        let chromaHeight = (height + (1 << chromaShift.vertical) - 1) >> chromaShift.vertical
        let rows = [height, chromaHeight, chromaHeight], columns = [width, chromaWidth, chromaWidth]
        guard planes.count == 3, strides.count == 3,
            (0..<3).allSatisfy({
                strides[$0] >= columns[$0] && planes[$0].count >= strides[$0] * (rows[$0] - 1) + columns[$0]
            })
        else {
            throw AVError(
                function: "Scaler.resizeYUV",
                message: "the planes are too small for \(width)x\(height) at chroma shift \(chromaShift)")
        }
        let outputChroma = ((toWidth + 1) / 2, (toHeight + 1) / 2)
        // Samples come out 16-bit and are rounded once, into the limited range when they came in full range:
        // swscale leaves grey samples in the range they came in.
        let luma = try Scaler(
            inputWidth: width, inputHeight: height, inputFormat: .gray,
            outputWidth: toWidth, outputHeight: toHeight, outputFormat: .gray16, filter: .lanczos)
        let chroma = try Scaler(
            inputWidth: chromaWidth, inputHeight: chromaHeight, inputFormat: .gray,
            outputWidth: outputChroma.0, outputHeight: outputChroma.1, outputFormat: .gray16, filter: .bilinear)
        return [
            try luma.scale(
                plane: planes[0], stride: strides[0], height: height, into: isFullRange ? .limitedLuma : .same),
            try chroma.scale(
                plane: planes[1], stride: strides[1], height: chromaHeight, into: isFullRange ? .limitedChroma : .same),
            try chroma.scale(
                plane: planes[2], stride: strides[2], height: chromaHeight, into: isFullRange ? .limitedChroma : .same),
        ]
    }

    /// Where 16-bit scaled samples land when rounded to 8 bits.
    enum SampleRange {
        /// 0–255 stays 0–255.
        case same
        /// Full-range luma to 16–235.
        case limitedLuma
        /// Full-range chroma (centred on 128) to 16–240.
        case limitedChroma

        /// (scale, offset) so that `sample8 = (sample16 * scale + offset) >> 24`, rounded to nearest. swscale's
        /// 16-bit grey output is the 8-bit value times 256 (255 comes out as 65280), not 257.
        var coefficients: (scale: Int, offset: Int) {
            let one = Double(1 << 24)
            let (gain, base): (Double, Double) =
                switch self {
                case .same: (1, 0)
                case .limitedLuma: (219.0 / 255, 16)
                case .limitedChroma: (224.0 / 255, 128 - 128 * 224.0 / 255)
                }
            return (Int((one * gain / 256).rounded()), Int((one * base + one / 2).rounded()))
        }
    }

    /// Scales one 8-bit plane with this scaler (made for `.gray` in, `.gray16` out) into a new, tightly packed
    /// 8-bit plane in `range`.
    func scale(plane: [UInt8], stride: Int, height: Int, into range: SampleRange) throws(AVError) -> [UInt8] {
        let count = outputWidth * outputHeight
        var wide = [UInt16](unsafeUninitializedCapacity: count) { _, initialized in initialized = count }
        let rows = plane.withUnsafeBufferPointer { source in
            wide.withUnsafeMutableBytes { target in
                let sources: [UnsafePointer<UInt8>?] = [source.baseAddress, nil, nil, nil]
                let targets: [UnsafeMutablePointer<UInt8>?] = [
                    target.baseAddress?.assumingMemoryBound(to: UInt8.self), nil, nil, nil,
                ]
                return sws_scale(
                    context, sources, [Int32(stride), 0, 0, 0], 0, Int32(height), targets,
                    [Int32(outputWidth * 2), 0, 0, 0])
            }
        }
        try check(rows, "sws_scale")
        guard rows == Int32(outputHeight) else {
            throw AVError(function: "sws_scale", message: "wrote \(rows) of \(outputHeight) rows")
        }
        let (scale, offset) = range.coefficients
        return [UInt8](unsafeUninitializedCapacity: count) { target, initialized in
            wide.withUnsafeBufferPointer { wide in
                for index in 0..<count {
                    target[index] = UInt8(
                        truncatingIfNeeded: (Int(UInt16(littleEndian: wide[index])) * scale + offset) >> 24)
                }
            }
            initialized = count
        }
    }
}
