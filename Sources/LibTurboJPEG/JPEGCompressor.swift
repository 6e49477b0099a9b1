internal import CTurboJPEG

/// Owns one TurboJPEG compressor handle. Reel writes JPEG posters and test fixtures with it.
package final class JPEGCompressor {
    package enum Input: Sendable {
        /// Packed RGBA; alpha is ignored.
        case rgba
        /// Packed CMYK, written as YCCK with an Adobe marker (so the samples should follow Adobe's inverted convention).
        case cmyk
    }

    package enum Subsampling: Sendable {
        case s444, s422, s420, gray
    }

    let handle: tjhandle

    package init() throws(TurboJPEGError) {
        guard let handle = tjInitCompress() else {
            throw TurboJPEGError(function: "tjInitCompress", message: String(cString: tjGetErrorStr2(nil)))
        }
        self.handle = handle
    }

    deinit { tjDestroy(handle) }

    package func compress(
        _ pixels: [UInt8], width: Int, height: Int, input: Input, quality: Int,
        subsampling: Subsampling = .s420, progressive: Bool = false
    ) throws(TurboJPEGError) -> [UInt8] {
        guard pixels.count >= width * height * 4 else {
            throw TurboJPEGError(
                function: "tjCompress2", message: "\(pixels.count) bytes is too few for \(width)x\(height)")
        }
        var output: UnsafeMutablePointer<UInt8>? = nil
        var size: UInt = 0
        let samp: TJSAMP =
            switch subsampling {
            case .s444: TJSAMP_444
            case .s422: TJSAMP_422
            case .s420: TJSAMP_420
            case .gray: TJSAMP_GRAY
            }
        let format = input == .rgba ? TJPF_RGBA : TJPF_CMYK
        let flags = TJFLAG_ACCURATEDCT | (progressive ? TJFLAG_PROGRESSIVE : 0)
        let result = pixels.withUnsafeBufferPointer {
            tjCompress2(
                handle, $0.baseAddress, Int32(width), Int32(width * 4), Int32(height), Int32(format.rawValue),
                &output, &size, Int32(samp.rawValue), Int32(quality), Int32(flags))
        }
        defer { if let output { tjFree(output) } }
        guard result == 0, let output else {
            throw TurboJPEGError(function: "tjCompress2", message: String(cString: tjGetErrorStr2(handle)))
        }
        return Array(UnsafeBufferPointer(start: output, count: Int(size)))
    }
}
