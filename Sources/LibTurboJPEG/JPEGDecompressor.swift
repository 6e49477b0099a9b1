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

    /// Decodes the whole picture at full size. Warnings (truncation, corrupt data) stop the decode and are thrown,
    /// so a half-grey picture is never returned; progressive scans are capped against scan-count bombs.
    package func decode(_ data: [UInt8], as format: OutputFormat) throws(TurboJPEGError) -> (pixels: [UInt8], width: Int, height: Int) {
        let header = try header(of: data)
        let stride = header.width * 4
        var pixels = [UInt8](repeating: 0, count: stride * header.height)
        let pixelFormat = format == .rgba ? TJPF_RGBA : TJPF_CMYK
        let flags = TJFLAG_ACCURATEDCT | TJFLAG_STOPONWARNING | TJFLAG_LIMITSCANS
        let result = data.withUnsafeBufferPointer { source in
            pixels.withUnsafeMutableBufferPointer { target in
                tjDecompress2(handle, source.baseAddress, UInt(source.count), target.baseAddress,
                              Int32(header.width), Int32(stride), Int32(header.height), Int32(pixelFormat.rawValue), Int32(flags))
            }
        }
        guard result == 0 else { throw error("tjDecompress2") }
        return (pixels, header.width, header.height)
    }

    private func error(_ function: String) -> TurboJPEGError {
        let message = String(cString: tjGetErrorStr2(handle))
        return TurboJPEGError(function: function, message: message, isWarning: tjGetErrorCode(handle) == Int32(TJERR_WARNING.rawValue))
    }
}
