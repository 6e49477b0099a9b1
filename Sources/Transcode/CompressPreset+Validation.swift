package import MediaModel

extension CompressPreset {
    package static var fileName: String { "compress.json" }

    package func validate(_ check: inout PresetCheck) {
        check.positive(frameRate, at: "frame_rate")
        check.atMost(frameRate, LadderPreset.maximumFrameRate, at: "frame_rate")
        check.positive(keyframeIntervalSeconds, at: "keyframe_interval_seconds")
        // The ladder a tier becomes has segments of twice the interval.
        check.atMost(keyframeIntervalSeconds, LadderPreset.maximumSeconds / 2, at: "keyframe_interval_seconds")
        check.require(
            LadderPreset.x264Presets.contains(x264Preset), at: "x264_preset",
            "must be one of \(LadderPreset.x264Presets.joined(separator: ", ")), got \"\(x264Preset)\"")
        check.within(crf, 0...51, at: "crf")
        check.nonNegative(remuxBelowBytes, at: "remux_below_bytes")
        audio.validate(&check, at: "audio")
        loudness.validate(&check, at: "loudness")
        for quality in Quality.allCases {
            guard let tier = presets[quality] else { continue }
            let path = "presets.\(quality.rawValue)"
            check.positive(tier.shortSide, at: path + ".short_side")
            check.atMost(tier.shortSide, LadderPreset.maximumSide, at: path + ".short_side")
            check.positive(tier.bitrateKbps, at: path + ".bitrate_kbps")
            check.atMost(tier.bitrateKbps, LadderPreset.maximumKbps, at: path + ".bitrate_kbps")
            check.positive(tier.bufferKbits, at: path + ".buffer_kbits")
            check.atMost(tier.bufferKbits, LadderPreset.maximumKbps, at: path + ".buffer_kbits")
            check.positive(tier.audioBitrateKbps, at: path + ".audio_bitrate_kbps")
            check.atMost(tier.audioBitrateKbps, LadderPreset.maximumKbps, at: path + ".audio_bitrate_kbps")
        }
    }
}
