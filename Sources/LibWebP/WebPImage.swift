internal import CWebP

/// A decoded WebP file as RGBA, for verifying what the encoder wrote with libwebp's own decoder.
package struct WebPImage: Sendable {
    package let width: Int
    package let height: Int
    /// Whether the bitstream carries an alpha plane.
    package let hasAlpha: Bool
    /// Tightly packed RGBA, `width * 4` bytes a row.
    package let rgba: [UInt8]

    /// Reads the header only: dimensions and alpha, without decoding pixels.
    package static func features(of data: [UInt8]) throws(WebPError) -> (width: Int, height: Int, hasAlpha: Bool) {
        var features = WebPBitstreamFeatures()
        let status = data.withUnsafeBufferPointer {
            WebPGetFeaturesInternal($0.baseAddress, $0.count, &features, WEBP_DECODER_ABI_VERSION)
        }
        guard status == VP8_STATUS_OK else {
            throw WebPError(function: "WebPGetFeatures", message: describe(status))
        }
        return (Int(features.width), Int(features.height), features.has_alpha != 0)
    }

    package init(decoding data: [UInt8]) throws(WebPError) {
        let header = try Self.features(of: data)
        var width: Int32 = 0
        var height: Int32 = 0
        let pixels: [UInt8]? = data.withUnsafeBufferPointer { buffer in
            guard let output = WebPDecodeRGBA(buffer.baseAddress, buffer.count, &width, &height) else { return nil }
            defer { WebPFree(output) }
            return Array(UnsafeBufferPointer(start: output, count: Int(width) * Int(height) * 4))
        }
        guard let pixels else {
            throw WebPError(function: "WebPDecodeRGBA", message: "the bitstream could not be decoded")
        }
        self.width = Int(width)
        self.height = Int(height)
        self.hasAlpha = header.hasAlpha
        self.rgba = pixels
    }

    static func describe(_ status: VP8StatusCode) -> String {
        switch status {
        case VP8_STATUS_OK: "ok"
        case VP8_STATUS_OUT_OF_MEMORY: "out of memory"
        case VP8_STATUS_INVALID_PARAM: "invalid parameter"
        case VP8_STATUS_BITSTREAM_ERROR: "bitstream error"
        case VP8_STATUS_UNSUPPORTED_FEATURE: "unsupported feature"
        case VP8_STATUS_SUSPENDED: "suspended"
        case VP8_STATUS_USER_ABORT: "aborted"
        case VP8_STATUS_NOT_ENOUGH_DATA: "not enough data (truncated)"
        default: "status \(status.rawValue)"
        }
    }
}
