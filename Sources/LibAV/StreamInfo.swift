/// What a stream's headers say, read once after `avformat_find_stream_info`.
package struct StreamInfo: Sendable {
    package enum MediaType: String, Sendable { case video, audio, subtitle, data, attachment, unknown }

    package var index: Int
    package var mediaType: MediaType
    package var codecName: String
    package var profileName: String?
    package var pixelFormat: PixelFormat?
    package var width: Int
    package var height: Int
    /// Clockwise degrees (0, 90, 180, 270) a player must rotate the picture by, from the display matrix.
    package var rotation: Int
    package var averageFrameRate: Rational
    package var realFrameRate: Rational
    package var frameCount: Int64
    package var timeBase: Rational
    /// Stream duration in seconds, when the container states one.
    package var durationSeconds: Double?
    package var startTimeSeconds: Double?
    package var sampleRate: Int
    package var channelCount: Int
    package var bitRate: Int64
    /// True for cover art and other single pictures attached to a video container.
    package var isAttachedPicture: Bool
}
