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
        /// Chroma subsampling as log2 factors (4:2:0 is (1, 1), 4:2:2 (1, 0)); nil for greyscale and for 4:1:1.
        package let chromaShift: (horizontal: Int, vertical: Int)?
        /// libjpeg-turbo's TJSAMP value, for its plane-size functions.
        let subsampling: Int32

        package static func == (a: Header, b: Header) -> Bool {
            a.width == b.width && a.height == b.height && a.colorspace == b.colorspace
                && a.chromaShift?.horizontal == b.chromaShift?.horizontal
                && a.chromaShift?.vertical == b.chromaShift?.vertical
        }
    }

    /// Planar YCbCr as the IDCT leaves it: full-range BT.601 (JFIF), chroma not yet upsampled. The picture is
    /// `width` by `height`; chroma covers `ceil(width / 2^horizontal)` by `ceil(height / 2^vertical)` of it. Rows
    /// are `lumaStride` and `chromaStride` apart: libjpeg-turbo pads planes to whole MCUs, so a plane may hold a
    /// row or column more than the picture.
    package struct Planes: Sendable {
        package var width: Int
        package var height: Int
        package var luma: [UInt8]
        package var cb: [UInt8]
        package var cr: [UInt8]
        package var lumaStride: Int
        package var chromaStride: Int
        package var chromaShift: (horizontal: Int, vertical: Int)
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
        let space: Colorspace =
            switch TJCS(rawValue: UInt32(colorspace)) {
            case TJCS_RGB: .rgb
            case TJCS_GRAY: .gray
            case TJCS_CMYK: .cmyk
            case TJCS_YCCK: .ycck
            case TJCS_YCbCr: .ycbcr
            default: .unknown
            }
        let shift: (horizontal: Int, vertical: Int)? =
            switch TJSAMP(rawValue: UInt32(subsampling)) {
            case TJSAMP_444: (0, 0)
            case TJSAMP_422: (1, 0)
            case TJSAMP_420: (1, 1)
            case TJSAMP_440: (0, 1)
            default: nil
            }
        return Header(
            width: Int(width), height: Int(height), colorspace: space, chromaShift: shift, subsampling: subsampling)
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
                tjDecompress2(
                    handle, source.baseAddress, UInt(source.count), target.baseAddress,
                    Int32(width), Int32(stride), Int32(height), Int32(pixelFormat.rawValue), Int32(flags))
            }
        }
        guard result == 0 else { throw error("tjDecompress2") }
        return (pixels, width, height)
    }

    /// Decodes to planar YCbCr without colour conversion or chroma upsampling, which a YUV consumer (a lossy WebP)
    /// would only undo; nil when the JPEG is not three-component YCbCr at 4:4:4, 4:2:2, 4:2:0 or 4:4:0 (greyscale,
    /// CMYK, RGB and 4:1:1 decode with `decode(_:as:atLeast:)`). Warnings, scan limits and the IDCT pre-scale
    /// behave as there.
    package func decodePlanes(
        _ data: [UInt8], atLeast minimum: (width: Int, height: Int)? = nil
    ) throws(TurboJPEGError) -> Planes? {
        let header = try header(of: data)
        guard header.colorspace == .ycbcr, let shift = header.chromaShift else { return nil }
        let subsampling = header.subsampling
        var scaled = (header.width, header.height)
        if let minimum { scaled = Self.scaledSize(width: header.width, height: header.height, covering: minimum) }
        // Plane sizes as libjpeg-turbo writes them (padded to whole MCUs), not as the picture needs them.
        let lumaStride = Int(tjPlaneWidth(0, Int32(scaled.0), subsampling)),
            lumaRows = Int(tjPlaneHeight(0, Int32(scaled.1), subsampling))
        let chromaStride = Int(tjPlaneWidth(1, Int32(scaled.0), subsampling)),
            chromaRows = Int(tjPlaneHeight(1, Int32(scaled.1), subsampling))
        guard lumaStride > 0, lumaRows > 0, chromaStride > 0, chromaRows > 0 else { throw error("tjPlaneWidth") }
        func plane(_ count: Int) -> [UInt8] {
            [UInt8](unsafeUninitializedCapacity: count) { _, initialized in initialized = count }
        }
        var planes = Planes(
            width: scaled.0, height: scaled.1, luma: plane(lumaStride * lumaRows), cb: plane(chromaStride * chromaRows),
            cr: plane(chromaStride * chromaRows), lumaStride: lumaStride, chromaStride: chromaStride, chromaShift: shift
        )
        var strides: [Int32] = [Int32(lumaStride), Int32(chromaStride), Int32(chromaStride)]
        let flags = TJFLAG_ACCURATEDCT | TJFLAG_STOPONWARNING | TJFLAG_LIMITSCANS
        let decoded = data.withUnsafeBufferPointer { source in
            planes.luma.withUnsafeMutableBufferPointer { y in
                planes.cb.withUnsafeMutableBufferPointer { cb in
                    planes.cr.withUnsafeMutableBufferPointer { cr in
                        var targets: [UnsafeMutablePointer<UInt8>?] = [y.baseAddress, cb.baseAddress, cr.baseAddress]
                        return tjDecompressToYUVPlanes(
                            handle, source.baseAddress, UInt(source.count), &targets, Int32(scaled.0),
                            &strides, Int32(scaled.1), Int32(flags))
                    }
                }
            }
        }
        guard decoded == 0 else { throw error("tjDecompressToYUVPlanes") }
        return planes
    }

    /// The smallest libjpeg-turbo scaling whose output still covers `minimum` in both sides, among 1/1 and the factors
    /// of 1/2 and below. The 5/8, 3/4 and 7/8 IDCTs blur and alias before the final Lanczos step: measured on a phone
    /// photo's crops they cost up to 0.0025 SSIM-Y against a full decode, and fell below cwebp's (docs/quirks.md).
    package static func scaledSize(width: Int, height: Int, covering minimum: (width: Int, height: Int)) -> (Int, Int) {
        var count: Int32 = 0
        guard let factors = tjGetScalingFactors(&count) else { return (width, height) }
        var best = (width, height)
        for factor in UnsafeBufferPointer(start: factors, count: Int(count))
        where factor.num == factor.denom || 2 * factor.num <= factor.denom {
            let w = (width * Int(factor.num) + Int(factor.denom) - 1) / Int(factor.denom)
            let h = (height * Int(factor.num) + Int(factor.denom) - 1) / Int(factor.denom)
            if w >= minimum.width, h >= minimum.height, w * h < best.0 * best.1 { best = (w, h) }
        }
        return best
    }

    private func error(_ function: String) -> TurboJPEGError {
        let message = String(cString: tjGetErrorStr2(handle))
        return TurboJPEGError(
            function: function, message: message, isWarning: tjGetErrorCode(handle) == Int32(TJERR_WARNING.rawValue))
    }
}
