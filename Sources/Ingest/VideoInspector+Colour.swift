internal import LibAV
internal import MediaModel

extension VideoInspector {
    /// The stream's colour: the container's or bitstream's tags, the first picture's where the headers left one
    /// unspecified, and the HDR metadata of both.
    static func colour(stream: ColorDescription, picture: ColorDescription, metadata: HDRMetadata) -> VideoColour {
        func pick(_ header: UInt32, _ decoded: UInt32) -> UInt32 { header == 0 || header == 2 ? decoded : header }
        let tags = ColorDescription(
            range: stream.range == 0 ? picture.range : stream.range,
            primaries: pick(stream.primaries, picture.primaries), transfer: pick(stream.transfer, picture.transfer),
            space: pick(stream.space, picture.space))
        let names = tags.names
        let dolbyVision = metadata.dolbyVision
        return VideoColour(
            primaries: names.primaries, transfer: names.transfer, matrix: names.space, range: names.range,
            dynamicRange: DynamicRange.of(
                transfer: names.transfer, dolbyVisionCompatibility: dolbyVision?.compatibility),
            dolbyVision: dolbyVision?.name ?? (metadata.hasDolbyVisionRPU ? "unknown" : nil),
            masteringPeakNits: metadata.masteringMaxLuminance, masteringBlackNits: metadata.masteringMinLuminance,
            maxContentLightLevel: metadata.maxContentLightLevel,
            maxFrameAverageLightLevel: metadata.maxFrameAverageLightLevel,
            masteringPrimaries: metadata.masteringPrimaries)
    }

    /// Dolby Vision without a base layer Reel can show (profile 5's IPTPQc2, or no compatible signal) would come
    /// out green and purple: refuse it with the reason, rather than publish wrong colours.
    func checkDolbyVision(_ colour: VideoColour) throws(Rejection) {
        // A configuration record's name has no ".compatibility" part when its base layer is compatible with nothing.
        guard let profile = colour.dolbyVision, profile != "unknown", !profile.contains(".") else { return }
        throw reject(
            .unsupportedFormat,
            "Dolby Vision profile \(profile) has no base layer compatible with HDR10, HLG or SDR, so its colours "
                + "need a Dolby Vision decoder; profiles with a compatible base layer (8.1, 8.2, 8.4) are accepted: "
                + "export the clip as HDR10, HLG or SDR")
    }
}
