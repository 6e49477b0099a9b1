/// The encoder knobs Reel sets; everything else keeps libwebp's defaults for the photo preset.
package struct WebPEncoderSettings: Sendable, Equatable {
    /// libwebp quality, 0...100.
    package var quality: Float
    /// Speed/size trade-off, 0 (fast) ... 6 (slow, smaller).
    package var method: Int
    /// Use the sharper, slower RGB→YUV conversion, which keeps chroma edges crisp.
    package var sharpYUV: Bool
    /// Worker thread for the encoder where libwebp can use one.
    package var threads: Bool

    package init(quality: Float, method: Int = 4, sharpYUV: Bool = false, threads: Bool = false) {
        self.quality = quality
        self.method = method
        self.sharpYUV = sharpYUV
        self.threads = threads
    }
}
