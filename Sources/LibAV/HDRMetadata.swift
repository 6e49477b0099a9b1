internal import CFFmpeg

/// What a stream's headers or a decoded picture's side data say about HDR mastering, so tone mapping can place
/// the source's peak (SMPTE ST 2086 mastering display, CTA-861.3 light levels) and Dolby Vision's base layer.
package struct HDRMetadata: Sendable, Equatable {
    /// The mastering display's peak and black, cd/m².
    package var masteringMaxLuminance: Double?
    package var masteringMinLuminance: Double?
    /// The mastering display's primaries and white point as CIE xy: red x, y, green x, y, blue x, y, white x, y.
    package var masteringPrimaries: [Double]?
    /// MaxCLL and MaxFALL, cd/m² (0 in the metadata means unknown, kept as nil).
    package var maxContentLightLevel: Int?
    package var maxFrameAverageLightLevel: Int?
    /// The `dvcC`/`dvvC` record of a Dolby Vision stream.
    package var dolbyVision: DolbyVisionConfiguration?
    /// Whether a decoded picture carried a Dolby Vision RPU (the bitstream says Dolby Vision even without a record).
    package var hasDolbyVisionRPU = false

    package init() {}

    package var isEmpty: Bool { self == HDRMetadata() }

    /// Fills what this one lacks from `other` (stream headers first, then the first picture's side data).
    package func merging(_ other: HDRMetadata) -> HDRMetadata {
        var merged = self
        merged.masteringMaxLuminance = masteringMaxLuminance ?? other.masteringMaxLuminance
        merged.masteringMinLuminance = masteringMinLuminance ?? other.masteringMinLuminance
        merged.masteringPrimaries = masteringPrimaries ?? other.masteringPrimaries
        merged.maxContentLightLevel = maxContentLightLevel ?? other.maxContentLightLevel
        merged.maxFrameAverageLightLevel = maxFrameAverageLightLevel ?? other.maxFrameAverageLightLevel
        merged.dolbyVision = dolbyVision ?? other.dolbyVision
        merged.hasDolbyVisionRPU = hasDolbyVisionRPU || other.hasDolbyVisionRPU
        return merged
    }

    mutating func read(_ mastering: AVMasteringDisplayMetadata) {
        if mastering.has_primaries != 0 {
            let p = mastering.display_primaries, w = mastering.white_point
            let xy = [p.0.0, p.0.1, p.1.0, p.1.1, p.2.0, p.2.1, w.0, w.1].map { av_q2d($0) }
            if xy.allSatisfy({ $0.isFinite && $0 >= 0 && $0 <= 1 }) { masteringPrimaries = xy }
        }
        guard mastering.has_luminance != 0 else { return }
        let peak = av_q2d(mastering.max_luminance), black = av_q2d(mastering.min_luminance)
        if peak.isFinite, peak > 0 { masteringMaxLuminance = peak }
        if black.isFinite, black >= 0 { masteringMinLuminance = black }
    }

    mutating func read(_ light: AVContentLightMetadata) {
        if light.MaxCLL > 0 { maxContentLightLevel = Int(light.MaxCLL) }
        if light.MaxFALL > 0 { maxFrameAverageLightLevel = Int(light.MaxFALL) }
    }
}

/// A Dolby Vision decoder configuration record: which profile, and what its base layer is compatible with.
package struct DolbyVisionConfiguration: Sendable, Equatable {
    package var profile: Int
    package var level: Int
    /// `dv_bl_signal_compatibility_id`: 0 none, 1 HDR10 (PQ), 2 SDR BT.709, 4 HLG, 6 BT.2100 PQ (ETSI TS 103 572).
    package var compatibility: Int
    package var hasRPU: Bool
    package var hasEnhancementLayer: Bool
    package var hasBaseLayer: Bool

    package init(
        profile: Int, level: Int, compatibility: Int, hasRPU: Bool = true, hasEnhancementLayer: Bool = false,
        hasBaseLayer: Bool = true
    ) {
        self.profile = profile
        self.level = level
        self.compatibility = compatibility
        self.hasRPU = hasRPU
        self.hasEnhancementLayer = hasEnhancementLayer
        self.hasBaseLayer = hasBaseLayer
    }

    /// "8.4" for profile 8 with an HLG-compatible base layer, "5" for profiles without a compatible one.
    package var name: String { compatibility == 0 ? "\(profile)" : "\(profile).\(compatibility)" }
}

extension InputContext {
    /// The HDR metadata in a stream's headers (`mdcv`, `clli`, `dvcC`/`dvvC` boxes and the like).
    package func hdrMetadata(ofStream index: Int) -> HDRMetadata {
        guard index >= 0, index < Int(pointer.pointee.nb_streams), let stream = pointer.pointee.streams[index] else {
            return HDRMetadata()
        }
        var metadata = HDRMetadata()
        var mastering = AVMasteringDisplayMetadata()
        if CFFmpeg_stream_mastering(stream, &mastering) != 0 { metadata.read(mastering) }
        var light = AVContentLightMetadata()
        if CFFmpeg_stream_content_light(stream, &light) != 0 { metadata.read(light) }
        var dovi = AVDOVIDecoderConfigurationRecord()
        if CFFmpeg_stream_dovi(stream, &dovi) != 0 {
            metadata.dolbyVision = DolbyVisionConfiguration(
                profile: Int(dovi.dv_profile), level: Int(dovi.dv_level),
                compatibility: Int(dovi.dv_bl_signal_compatibility_id), hasRPU: dovi.rpu_present_flag != 0,
                hasEnhancementLayer: dovi.el_present_flag != 0, hasBaseLayer: dovi.bl_present_flag != 0)
        }
        return metadata
    }
}

extension Frame {
    /// The HDR metadata a decoder attached to this picture (HEVC SEI: mastering display, light level, DV RPU).
    package var hdrMetadata: HDRMetadata {
        var metadata = HDRMetadata()
        if let data = av_frame_get_side_data(pointer, AV_FRAME_DATA_MASTERING_DISPLAY_METADATA),
            data.pointee.size >= MemoryLayout<AVMasteringDisplayMetadata>.size
        {
            metadata.read(UnsafeRawPointer(data.pointee.data).loadUnaligned(as: AVMasteringDisplayMetadata.self))
        }
        if let data = av_frame_get_side_data(pointer, AV_FRAME_DATA_CONTENT_LIGHT_LEVEL),
            data.pointee.size >= MemoryLayout<AVContentLightMetadata>.size
        {
            metadata.read(UnsafeRawPointer(data.pointee.data).loadUnaligned(as: AVContentLightMetadata.self))
        }
        metadata.hasDolbyVisionRPU = av_frame_get_side_data(pointer, AV_FRAME_DATA_DOVI_RPU_BUFFER) != nil
        return metadata
    }
}
