public import MediaModel
public import Transcode

extension CompressPreset {
    /// True when a video already meets the tier as `VideoCompressor` judges it for a remux: 8-bit H.264, short side
    /// and frame rate within the tier, bitrate within 110 % of the tier's, and no audio or AAC audio. Size is the
    /// plan's concern (`UploadPlan`), not this test's.
    public func fits(_ info: MediaInfo, quality: Quality) -> Bool {
        guard let video = info.video else { return false }
        let tier = tier(quality)
        return video.codec == "h264" && video.bitDepth == 8
            && min(video.displayWidth, video.displayHeight) <= tier.shortSide
            && video.averageFrameRate <= frameRate + 0.5
            && (info.bitRate ?? Int64.max) <= Int64(tier.bitrateKbps + tier.audioBitrateKbps) * 1100
            && (info.audio == nil || info.audio?.codec == "aac")
    }
}
