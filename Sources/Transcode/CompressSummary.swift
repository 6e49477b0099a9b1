public import MediaModel

/// What `reel compress` did: remuxed as is, or re-encoded to the tier.
public struct CompressSummary: Encodable, Sendable {
    public enum Mode: String, Codable, Sendable { case remux, transcode }

    public var source: String
    public var output: String
    public var mode: Mode
    public var sourceBytes: Int64
    public var bytes: Int64
    public var width: Int
    public var height: Int
    public var frameRate: Double
    public var durationSeconds: Double
    public var elapsedSeconds: Double
    /// The source's loudness and what was done to the audio (nil without audio, or with loudness off); a file is
    /// only remuxed when its audio is already on the target.
    public var loudness: AudioLoudness? = nil

    public var reductionPercent: Double { sourceBytes > 0 ? 100 * (1 - Double(bytes) / Double(sourceBytes)) : 0 }

    enum CodingKeys: String, CodingKey {
        case source, output, mode, bytes, width, height, loudness
        case sourceBytes = "source_bytes"
        case frameRate = "frame_rate"
        case durationSeconds = "duration_seconds"
        case elapsedSeconds = "elapsed_seconds"
        case reductionPercent = "reduction_percent"
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(source, forKey: .source)
        try container.encode(output, forKey: .output)
        try container.encode(mode, forKey: .mode)
        try container.encode(sourceBytes, forKey: .sourceBytes)
        try container.encode(bytes, forKey: .bytes)
        try container.encode(width, forKey: .width)
        try container.encode(height, forKey: .height)
        try container.encode(frameRate, forKey: .frameRate)
        try container.encode(durationSeconds, forKey: .durationSeconds)
        try container.encode(elapsedSeconds, forKey: .elapsedSeconds)
        try container.encode((reductionPercent * 10).rounded() / 10, forKey: .reductionPercent)
        try container.encodeIfPresent(loudness, forKey: .loudness)
    }
}
