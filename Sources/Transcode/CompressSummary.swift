package import MediaModel

/// What `reel compress` did: remuxed as is, or re-encoded to the tier.
package struct CompressSummary: Encodable, Sendable {
    package enum Mode: String, Codable, Sendable { case remux, transcode }

    package var source: String
    package var output: String
    package var mode: Mode
    package var sourceBytes: Int64
    package var bytes: Int64
    package var width: Int
    package var height: Int
    package var frameRate: Double
    package var durationSeconds: Double
    package var elapsedSeconds: Double
    /// The source's loudness and what was done to the audio (nil without audio, or with loudness off); a file is
    /// only remuxed when its audio is already on the target.
    package var loudness: AudioLoudness? = nil

    package var reductionPercent: Double { sourceBytes > 0 ? 100 * (1 - Double(bytes) / Double(sourceBytes)) : 0 }

    enum CodingKeys: String, CodingKey {
        case source, output, mode, bytes, width, height, loudness
        case sourceBytes = "source_bytes"
        case frameRate = "frame_rate"
        case durationSeconds = "duration_seconds"
        case elapsedSeconds = "elapsed_seconds"
        case reductionPercent = "reduction_percent"
    }

    package func encode(to encoder: any Encoder) throws {
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
