/// What the content-aware analysis measured and chose, in the job's summary (`TranscodeSummary.rateAnalysis`).
public struct RateAnalysis: Codable, Sendable {
    public struct Rendition: Codable, Sendable {
        /// The rendition's id (`720p`, `720p-hevc`), its rung and codec.
        public var id: String
        public var rung: String
        public var videoCodec: VideoCodec
        /// The CRF chosen, the SSIM-Y it had to keep, and what the probes predict it gets (nil for an HEVC or AV1
        /// rung that was not probed itself: it keeps the probed rung's distance from its H.264 CRF).
        public var crf: Double
        public var targetSSIMY: Double
        public var predictedSSIMY: Double?
        /// The probe encodes the choice was read from, by CRF: two, or three for a codec whose choice was its higher
        /// probe (read between the top two); empty for a rung that was not probed.
        public var probes: [RateProbePoint]

        enum CodingKeys: String, CodingKey {
            case id, rung, crf, probes
            case videoCodec = "video_codec"
            case targetSSIMY = "target_ssim_y"
            case predictedSSIMY = "predicted_ssim_y"
        }
    }

    /// Where the sampled windows start in the clip, in seconds, and how long each one is.
    public var windowStarts: [Double]
    public var windowSeconds: Double
    /// CPU (every thread) and wall time the analysis took, before the ladder's own encode.
    public var cpuSeconds: Double
    public var elapsedSeconds: Double
    public var renditions: [Rendition]

    enum CodingKeys: String, CodingKey {
        case renditions
        case windowStarts = "window_starts"
        case windowSeconds = "window_seconds"
        case cpuSeconds = "cpu_seconds"
        case elapsedSeconds = "elapsed_seconds"
    }
}
