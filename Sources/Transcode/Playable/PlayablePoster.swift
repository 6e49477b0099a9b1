internal import FileSystem
internal import LibAV
internal import LibTurboJPEG
internal import LibWebP

/// The provisional rendition's poster as JPEG and WebP, encoded as the ladder encodes its own
/// (`LadderSession.writePosters`: libjpeg-turbo quality 85, WebP quality 80).
enum PlayablePoster {
    /// Writes `picture` (any format, upright, at the rendition's size) to both files.
    /// - Throws: `AVError` converting the picture, `FileSystemError` writing, or the encoders' errors.
    static func write(_ picture: Frame, jpeg: String, webp: String) throws {
        let rgba = try picture.packedRGBA()
        let (width, height) = (picture.width, picture.height)
        let jpegBytes = try JPEGCompressor().compress(rgba, width: width, height: height, input: .rgba, quality: 85)
        try AtomicFile.write(jpegBytes, to: jpeg, durable: false)
        let webpPicture = try WebPPicture(rgba: rgba, width: width, height: height, stride: width * 4, hasAlpha: false)
        try AtomicFile.write(
            try WebPEncoder(settings: WebPEncoderSettings(quality: 80)).encode(webpPicture), to: webp, durable: false)
    }

}
