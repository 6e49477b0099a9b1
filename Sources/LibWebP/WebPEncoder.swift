internal import CWebP

/// Encodes pictures to lossy WebP files held in memory. Only pixels go in, so no metadata chunk can come out.
package struct WebPEncoder: Sendable {
    package let settings: WebPEncoderSettings

    package init(settings: WebPEncoderSettings) {
        self.settings = settings
    }

    /// Encodes `picture`; an `iccProfile` is attached as the only chunk besides the image.
    package func encode(_ picture: WebPPicture, iccProfile: [UInt8]? = nil) throws(WebPError) -> [UInt8] {
        var config = WebPConfig()
        guard CWebP_ConfigPreset(&config, WEBP_PRESET_DEFAULT, settings.quality) != 0 else {
            throw WebPError(function: "WebPConfigPreset", message: "libwebp version mismatch")
        }
        config.method = Int32(settings.method)
        config.use_sharp_yuv = settings.sharpYUV ? 1 : 0
        config.thread_level = settings.threads ? 1 : 0
        guard WebPValidateConfig(&config) != 0 else {
            throw WebPError(
                function: "WebPValidateConfig",
                message: "quality \(settings.quality) or method \(settings.method) is out of range")
        }
        let writer = WebPMemoryWriter()
        let ok = withUnsafeMutablePointer(to: &writer.raw) { sink -> Int32 in
            picture.raw.writer = WebPMemoryWrite
            picture.raw.custom_ptr = UnsafeMutableRawPointer(sink)
            defer {
                picture.raw.writer = nil
                picture.raw.custom_ptr = nil
            }
            return WebPEncode(&config, &picture.raw)
        }
        guard ok != 0 else {
            throw WebPError(function: "WebPEncode", message: WebPPicture.describe(picture.raw.error_code))
        }
        guard let iccProfile, !iccProfile.isEmpty else { return writer.bytes }
        return try WebPMux.attach(iccProfile: iccProfile, to: writer.bytes)
    }
}
