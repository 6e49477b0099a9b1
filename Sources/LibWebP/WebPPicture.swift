internal import CWebP

/// Owns one `WebPPicture`; its pixel buffers are freed in `deinit`.
package final class WebPPicture {
    var raw = CWebP.WebPPicture()

    /// Imports tightly or loosely packed RGBA. `hasAlpha: false` imports as RGB so no alpha plane is written.
    package init(rgba: [UInt8], width: Int, height: Int, stride: Int, hasAlpha: Bool) throws(WebPError) {
        guard CWebP_PictureInit(&raw) != 0 else {
            throw WebPError(function: "WebPPictureInit", message: "libwebp version mismatch")
        }
        guard width > 0, height > 0, width <= Int(WEBP_MAX_DIMENSION), height <= Int(WEBP_MAX_DIMENSION) else {
            throw WebPError(
                function: "WebPPictureImportRGBA",
                message: "dimensions \(width)x\(height) are outside 1...\(WEBP_MAX_DIMENSION)")
        }
        guard stride >= width * 4, rgba.count >= stride * (height - 1) + width * 4 else {
            throw WebPError(
                function: "WebPPictureImportRGBA",
                message: "buffer of \(rgba.count) bytes is too small for \(width)x\(height)")
        }
        // YUV import: lossy WebP is YUV, so converting once here avoids an ARGB copy and a second pass.
        raw.use_argb = 0
        raw.width = Int32(width)
        raw.height = Int32(height)
        let ok = rgba.withUnsafeBufferPointer { buffer -> Int32 in
            guard let base = buffer.baseAddress else { return 0 }
            if hasAlpha {
                return WebPPictureImportRGBA(&raw, base, Int32(stride))
            }
            return WebPPictureImportRGBX(&raw, base, Int32(stride))
        }
        guard ok != 0 else {
            throw WebPError(
                function: hasAlpha ? "WebPPictureImportRGBA" : "WebPPictureImportRGBX",
                message: Self.describe(raw.error_code))
        }
    }

    /// Copies limited-range BT.601 4:2:0 planes, WebP's own layout, so the encoder starts without a colour
    /// conversion. `planes` are Y (`width` by `height`) and U, V (`ceil(width / 2)` by `ceil(height / 2)`), tightly packed.
    package init(yuv420 planes: [[UInt8]], width: Int, height: Int) throws(WebPError) {
        guard CWebP_PictureInit(&raw) != 0 else {
            throw WebPError(function: "WebPPictureInit", message: "libwebp version mismatch")
        }
        guard width > 0, height > 0, width <= Int(WEBP_MAX_DIMENSION), height <= Int(WEBP_MAX_DIMENSION) else {
            throw WebPError(
                function: "WebPPictureAlloc",
                message: "dimensions \(width)x\(height) are outside 1...\(WEBP_MAX_DIMENSION)")
        }
        let chromaWidth = (width + 1) / 2, chromaHeight = (height + 1) / 2
        guard planes.count == 3, planes[0].count >= width * height,
            planes[1].count >= chromaWidth * chromaHeight, planes[2].count >= chromaWidth * chromaHeight
        else {
            throw WebPError(
                function: "WebPPictureAlloc", message: "the planes are too small for \(width)x\(height) 4:2:0")
        }
        raw.use_argb = 0
        raw.colorspace = WEBP_YUV420
        raw.width = Int32(width)
        raw.height = Int32(height)
        guard WebPPictureAlloc(&raw) != 0 else {
            throw WebPError(function: "WebPPictureAlloc", message: Self.describe(raw.error_code))
        }
        let targets = [
            (raw.y, Int(raw.y_stride), width, height), (raw.u, Int(raw.uv_stride), chromaWidth, chromaHeight),
            (raw.v, Int(raw.uv_stride), chromaWidth, chromaHeight),
        ]
        for (plane, (target, stride, columns, rows)) in zip(planes, targets) {
            guard let target else { throw WebPError(function: "WebPPictureAlloc", message: "no plane was allocated") }
            plane.withUnsafeBufferPointer { source in
                for row in 0..<rows {
                    (target + row * stride).update(from: source.baseAddress! + row * columns, count: columns)
                }
            }
        }
    }

    deinit { WebPPictureFree(&raw) }

    package var width: Int { Int(raw.width) }
    package var height: Int { Int(raw.height) }

    static func describe(_ code: WebPEncodingError) -> String {
        switch code {
        case VP8_ENC_OK: "ok"
        case VP8_ENC_ERROR_OUT_OF_MEMORY: "out of memory"
        case VP8_ENC_ERROR_BITSTREAM_OUT_OF_MEMORY: "out of memory while flushing the bitstream"
        case VP8_ENC_ERROR_NULL_PARAMETER: "a required parameter was null"
        case VP8_ENC_ERROR_INVALID_CONFIGURATION: "invalid configuration"
        case VP8_ENC_ERROR_BAD_DIMENSION: "bad picture dimensions"
        case VP8_ENC_ERROR_PARTITION0_OVERFLOW: "partition 0 is larger than 512 KiB"
        case VP8_ENC_ERROR_PARTITION_OVERFLOW: "a partition is larger than 16 MiB"
        case VP8_ENC_ERROR_BAD_WRITE: "the writer failed"
        case VP8_ENC_ERROR_FILE_TOO_BIG: "the file would be larger than 4 GiB"
        case VP8_ENC_ERROR_USER_ABORT: "aborted"
        default: "error \(code.rawValue)"
        }
    }
}
