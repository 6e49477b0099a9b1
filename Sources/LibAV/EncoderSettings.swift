/// What an encoder is opened with. Codec-private options (x264 preset, crf, ...) go in `options`.
package struct EncoderSettings: Sendable {
    package enum Kind: Sendable {
        case video(width: Int, height: Int, pixelFormat: PixelFormat, frameRate: Rational)
        case audio(sampleRate: Int, channels: Int)
    }

    package var codec: String
    package var kind: Kind
    package var timeBase: Rational
    package var bitRate: Int64
    package var maxRate: Int64
    package var bufferSize: Int64
    package var gopSize: Int
    package var maxBFrames: Int?
    package var threads: Int
    /// Put codec headers in extradata (avcC) rather than in-band, as MP4 and fMP4 HLS need.
    package var globalHeader: Bool
    package var color: ColorDescription?
    package var options: [(String, String)]

    package init(
        codec: String, kind: Kind, timeBase: Rational, bitRate: Int64 = 0, maxRate: Int64 = 0,
        bufferSize: Int64 = 0, gopSize: Int = 0, maxBFrames: Int? = nil, threads: Int = 1,
        globalHeader: Bool = true, color: ColorDescription? = nil, options: [(String, String)] = []
    ) {
        self.codec = codec
        self.kind = kind
        self.timeBase = timeBase
        self.bitRate = bitRate
        self.maxRate = maxRate
        self.bufferSize = bufferSize
        self.gopSize = gopSize
        self.maxBFrames = maxBFrames
        self.threads = threads
        self.globalHeader = globalHeader
        self.color = color
        self.options = options
    }
}
