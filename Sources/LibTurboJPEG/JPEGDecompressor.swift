internal import CTurboJPEG

/// Owns one TurboJPEG decompressor handle. Decodes to RGB(A), greyscale or raw CMYK, which libjpeg-turbo
/// handles for every JPEG flavour phones and scanners write (baseline, progressive, greyscale, CMYK, YCCK).
package final class JPEGDecompressor {
    package enum Colorspace: Sendable, Equatable {
        case rgb, gray, cmyk, ycck, ycbcr, unknown
    }

    package struct Header: Sendable, Equatable {
        package let width: Int
        package let height: Int
        package let colorspace: Colorspace
    }

    package enum OutputFormat: Sendable {
        /// Four bytes a pixel, alpha 255.
        case rgba
        /// Four bytes a pixel as stored (YCCK is converted to CMYK); Adobe files store it inverted.
        case cmyk
    }

    let handle: tjhandle

    package init() throws(TurboJPEGError) {
        guard let handle = tjInitDecompress() else {
            throw TurboJPEGError(function: "tjInitDecompress", message: String(cString: tjGetErrorStr2(nil)))
        }
        self.handle = handle
    }

    deinit { tjDestroy(handle) }

    package func header(of data: [UInt8]) throws(TurboJPEGError) -> Header {
        var width: Int32 = 0, height: Int32 = 0, subsampling: Int32 = 0, colorspace: Int32 = 0
        let result = data.withUnsafeBufferPointer {
            tjDecompressHeader3(handle, $0.baseAddress, UInt($0.count), &width, &height, &subsampling, &colorspace)
        }
        guard result == 0 else { throw error("tjDecompressHeader3") }
        let space: Colorspace = switch TJCS(rawValue: UInt32(colorspace)) {
        case TJCS_RGB: .rgb
        case TJCS_GRAY: .gray
        case TJCS_CMYK: .cmyk
        case TJCS_YCCK: .ycck
        case TJCS_YCbCr: .ycbcr
        default: .unknown
        }
        return Header(width: Int(width), height: Int(height), colorspace: space)
    }

    /// Decodes the whole picture. Warnings (truncation, corrupt data) stop the decode and are thrown, so a
    /// half-grey picture is never returned; progressive scans are capped against scan-count bombs.
    ///
    /// With `atLeast`, the IDCT itself scales down to the smallest size still covering it: a cheap first step before
    /// the final resize, which skips most of the full-size work. Only factors of 1/2 and below are used (see
    /// `scaledSize`).
    package func decode(
        _ data: [UInt8], as format: OutputFormat, atLeast minimum: (width: Int, height: Int)? = nil
    ) throws(TurboJPEGError) -> (pixels: [UInt8], width: Int, height: Int) {
        let header = try header(of: data)
        var width = header.width, height = header.height
        if let minimum { (width, height) = Self.scaledSize(width: width, height: height, covering: minimum) }
        let stride = width * 4
        let pixelCount = stride * height
        var pixels = [UInt8](unsafeUninitializedCapacity: pixelCount) { _, count in count = pixelCount }
        let pixelFormat = format == .rgba ? TJPF_RGBA : TJPF_CMYK
        let flags = TJFLAG_ACCURATEDCT | TJFLAG_STOPONWARNING | TJFLAG_LIMITSCANS
        let result = data.withUnsafeBufferPointer { source in
            pixels.withUnsafeMutableBufferPointer { target in
                tjDecompress2(handle, source.baseAddress, UInt(source.count), target.baseAddress,
                              Int32(width), Int32(stride), Int32(height), Int32(pixelFormat.rawValue), Int32(flags))
            }
        }
        guard result == 0 else { throw error("tjDecompress2") }
        return (pixels, width, height)
    }

    /// The smallest libjpeg-turbo scaling whose output still covers `minimum` in both sides, among 1/1 and the factors
    /// of 1/2 and below. The 5/8, 3/4 and 7/8 IDCTs blur and alias before the final Lanczos step: measured on a phone
    /// photo's crops they cost up to 0.0025 SSIM-Y against a full decode, and fell below cwebp's (docs/quirks.md).
    package static func scaledSize(width: Int, height: Int, covering minimum: (width: Int, height: Int)) -> (Int, Int) {
        var count: Int32 = 0
        guard let factors = tjGetScalingFactors(&count) else { return (width, height) }
        var best = (width, height)
        for factor in UnsafeBufferPointer(start: factors, count: Int(count)) where factor.num == factor.denom || 2 * factor.num <= factor.denom {
            let w = (width * Int(factor.num) + Int(factor.denom) - 1) / Int(factor.denom)
            let h = (height * Int(factor.num) + Int(factor.denom) - 1) / Int(factor.denom)
            if w >= minimum.width, h >= minimum.height, w * h < best.0 * best.1 { best = (w, h) }
        }
        return best
    }

    private func error(_ function: String) -> TurboJPEGError {
        let message = String(cString: tjGetErrorStr2(handle))
        return TurboJPEGError(function: function, message: message, isWarning: tjGetErrorCode(handle) == Int32(TJERR_WARNING.rawValue))
    }
}
