package import MediaModel

extension CompressPreset {
    /// True when a video already meets the tier, so remuxing it is enough: 8-bit H.264, short side and frame rate
    /// within the tier, bitrate within 110 % of the tier's, and no audio or AAC audio. `VideoCompressor` and
    /// `reel upload`'s plan both ask this; size is each caller's own rule.
    package func fits(_ info: MediaInfo, quality: Quality) -> Bool {
        guard let video = info.video else { return false }
        let tier = tier(quality)
        return video.codec == "h264" && video.bitDepth == 8
            && min(video.displayWidth, video.displayHeight) <= tier.shortSide
            && video.averageFrameRate <= frameRate + 0.5
            && (info.bitRate ?? Int64.max) <= Int64(tier.bitrateKbps + tier.audioBitrateKbps) * 1100
            && (info.audio == nil || info.audio?.codec == "aac")
    }
}
