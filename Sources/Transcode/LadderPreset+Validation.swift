package import MediaModel

extension LadderPreset {
    package static var fileName: String { "ladder.json" }

    /// libx264's speed presets, fastest first: a misspelt one would only fail when the first encoder opens.
    static let x264Presets = [
        "ultrafast", "superfast", "veryfast", "faster", "fast", "medium", "slow", "slower", "veryslow", "placebo",
    ]
    /// x265 has the same names.
    static let x265Presets = x264Presets

    /// Ceilings far above any real ladder that keep the planner's and the encoders' integers from trapping:
    /// kbps × 1000 is an Int64, a side is squared, a sample rate and a GOP (frame rate × interval) are C ints.
    static let maximumKbps = 10_000_000
    static let maximumSide = 65_536
    static let maximumSampleRate = 384_000
    static let maximumFrameRate = 1_000.0
    static let maximumSeconds = 3_600.0

    package func validate(_ check: inout PresetCheck) {
        check.positive(segmentSeconds, at: "segment_seconds")
        check.atMost(segmentSeconds, Self.maximumSeconds, at: "segment_seconds")
        check.positive(keyframeIntervalSeconds, at: "keyframe_interval_seconds")
        check.atMost(keyframeIntervalSeconds, Self.maximumSeconds, at: "keyframe_interval_seconds")
        if segmentSeconds > 0, keyframeIntervalSeconds > 0 {
            check.require(
                segmentSeconds.truncatingRemainder(dividingBy: keyframeIntervalSeconds) == 0, at: "segment_seconds",
                "must be a multiple of keyframe_interval_seconds (\(keyframeIntervalSeconds)), got \(segmentSeconds)")
        }
        check.positive(maxFrameRate, at: "max_frame_rate")
        check.atMost(maxFrameRate, Self.maximumFrameRate, at: "max_frame_rate")
        check.require(
            Self.x264Presets.contains(x264Preset), at: "x264_preset",
            "must be one of \(Self.x264Presets.joined(separator: ", ")), got \"\(x264Preset)\"")
        audio.validate(&check, at: "audio")
        check.require(!rungs.isEmpty, at: "rungs", "needs at least one rung")
        for (index, rung) in rungs.enumerated() {
            let path = "rungs[\(index)]"
            check.require(!rung.id.isEmpty, at: path + ".id", "must not be empty")
            check.require(
                rungs.firstIndex { $0.id == rung.id } == index, at: path + ".id",
                "\"\(rung.id)\" is used by an earlier rung")
            check.positive(rung.shortSide, at: path + ".short_side")
            check.atMost(rung.shortSide, Self.maximumSide, at: path + ".short_side")
            check.within(rung.crf, VideoCodec.h264.crfRange, at: path + ".crf")
            check.positive(rung.maxBitrateKbps, at: path + ".max_bitrate_kbps")
            check.atMost(rung.maxBitrateKbps, Self.maximumKbps, at: path + ".max_bitrate_kbps")
            check.positive(rung.bufferKbits, at: path + ".buffer_kbits")
            check.atMost(rung.bufferKbits, Self.maximumKbps, at: path + ".buffer_kbits")
            check.positive(rung.audioBitrateKbps, at: path + ".audio_bitrate_kbps")
            check.atMost(rung.audioBitrateKbps, Self.maximumKbps, at: path + ".audio_bitrate_kbps")
            if let hevcCRF = rung.hevcCRF { check.within(hevcCRF, VideoCodec.hevc.crfRange, at: path + ".hevc_crf") }
            if let av1CRF = rung.av1CRF { check.within(av1CRF, VideoCodec.av1.crfRange, at: path + ".av1_crf") }
            if let target = rung.targetSSIMY { check.within(target, 0...1, at: path + ".target_ssim_y") }
            if codecs.contains(.hevc) {
                check.within(crf(.hevc, rung: rung), VideoCodec.hevc.crfRange, at: path + ".crf + hevc.crf_offset")
            }
            if codecs.contains(.av1) {
                check.within(crf(.av1, rung: rung), VideoCodec.av1.crfRange, at: path + ".crf + av1.crf_offset")
            }
        }
        check.require(codecs.contains(.h264), at: "codecs", "must include \"h264\", the fallback every player decodes")
        check.require(Set(codecs).count == codecs.count, at: "codecs", "lists a codec twice: \(codecs.map(\.rawValue))")
        check.require(
            Self.x265Presets.contains(hevc.preset), at: "hevc.preset",
            "must be one of \(Self.x265Presets.joined(separator: ", ")), got \"\(hevc.preset)\"")
        check.within(av1.preset, 0...13, at: "av1.preset")
        check.within(hevc.probeCRFStep, 1...20, at: "hevc.probe_crf_step")
        check.within(av1.probeCRFStep, 1...30, at: "av1.probe_crf_step")
        contentAware.validate(&check, at: "content_aware")
        loudness.validate(&check, at: "loudness")
        check.nonNegative(poster.searchSeconds, at: "poster.search_seconds")
        check.require(
            rungs.contains { $0.id == poster.rung }, at: "poster.rung",
            "must be the id of a rung (\(rungs.map(\.id).joined(separator: ", "))), got \"\(poster.rung)\"")
    }
}

extension LadderPreset.ContentAware {
    func validate(_ check: inout PresetCheck, at path: String) {
        check.within(samples, 1...20, at: path + ".samples")
        check.within(sampleSeconds, 0.1...10, at: path + ".sample_seconds")
        check.within(maxCRFRaise, 1...20, at: path + ".max_crf_raise")
        check.within(maxSSIMDrop, 0...0.1, at: path + ".max_ssim_drop")
        check.within(codecSSIMMargin, 0...0.05, at: path + ".codec_ssim_margin")
    }
}

extension LadderPreset.Audio {
    func validate(_ check: inout PresetCheck, at path: String) {
        check.positive(sampleRate, at: path + ".sample_rate")
        check.atMost(sampleRate, LadderPreset.maximumSampleRate, at: path + ".sample_rate")
        check.within(channels, 1...8, at: path + ".channels")
    }
}
