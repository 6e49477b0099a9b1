package import MediaModel

/// `Presets/compress.json`: the design's client-side compression tiers. Read it with `PresetLoader`.
package struct CompressPreset: PresetFile, Equatable {
    package enum Quality: String, Codable, CodingKeyRepresentable, Sendable, CaseIterable { case low, medium, high }

    package struct Tier: Codable, Sendable, Equatable {
        package var shortSide: Int
        package var bitrateKbps: Int
        package var bufferKbits: Int
        package var audioBitrateKbps: Int
        enum CodingKeys: String, CodingKey, CaseIterable {
            case shortSide = "short_side"
            case bitrateKbps = "bitrate_kbps"
            case bufferKbits = "buffer_kbits"
            case audioBitrateKbps = "audio_bitrate_kbps"
        }
    }

    package var frameRate: Double
    package var keyframeIntervalSeconds: Double
    package var x264Preset: String
    /// Capped CRF: quality-driven below the tier's bitrate, never above it.
    package var crf: Int
    /// Files below this size that already fit the tier are only remuxed (MB = 10^6 bytes).
    package var remuxBelowBytes: Int64
    package var audio: LadderPreset.Audio
    /// The loudness a compressed file's audio is brought to, as the ladder's (`LadderPreset.Loudness`).
    package var loudness: LadderPreset.Loudness = .default
    package var presets: [Quality: Tier]

    enum CodingKeys: String, CodingKey, CaseIterable {
        case frameRate = "frame_rate"
        case keyframeIntervalSeconds = "keyframe_interval_seconds"
        case x264Preset = "x264_preset"
        case crf
        case remuxBelowBytes = "remux_below_bytes"
        case audio, presets, loudness
    }

    package static let `default` = CompressPreset(
        frameRate: 30, keyframeIntervalSeconds: 2, x264Preset: "veryfast", crf: 21, remuxBelowBytes: 10_000_000,
        audio: .init(sampleRate: 48_000, channels: 2),
        presets: [
            .low: Tier(shortSide: 540, bitrateKbps: 1500, bufferKbits: 3000, audioBitrateKbps: 96),
            .medium: Tier(shortSide: 720, bitrateKbps: 3000, bufferKbits: 6000, audioBitrateKbps: 128),
            .high: Tier(shortSide: 1080, bitrateKbps: 6000, bufferKbits: 12000, audioBitrateKbps: 128),
        ]
    )

    package func tier(_ quality: Quality) -> Tier { presets[quality] ?? Self.default.presets[quality]! }

    /// The tier as a one-rung ladder, so compression runs through the same planner and pipeline as HLS.
    func ladder(_ quality: Quality) -> LadderPreset {
        let tier = tier(quality)
        return LadderPreset(
            segmentSeconds: keyframeIntervalSeconds * 2, keyframeIntervalSeconds: keyframeIntervalSeconds,
            maxFrameRate: frameRate,
            x264Preset: x264Preset, audio: audio,
            rungs: [
                .init(
                    id: "\(tier.shortSide)p", shortSide: tier.shortSide, crf: crf, maxBitrateKbps: tier.bitrateKbps,
                    bufferKbits: tier.bufferKbits, audioBitrateKbps: tier.audioBitrateKbps)
            ],
            poster: .init(searchSeconds: 0, rung: "\(tier.shortSide)p"), loudness: loudness
        )
    }
}
