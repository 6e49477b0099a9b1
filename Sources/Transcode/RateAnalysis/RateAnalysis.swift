/// What the content-aware analysis measured and chose, in the job's summary (`TranscodeSummary.rateAnalysis`).
package struct RateAnalysis: Codable, Sendable {
    package struct Rendition: Codable, Sendable {
        /// The rendition's id (`720p`, `720p-hevc`), its rung and codec.
        package var id: String
        package var rung: String
        package var videoCodec: VideoCodec
        /// The CRF chosen, the SSIM-Y it had to keep, and what the probes predict it gets (nil for an HEVC or AV1
        /// rung that was not probed itself: it keeps the probed rung's distance from its H.264 CRF; both nil for an
        /// H.264 rung that kept its CRF because the first probes showed no headroom).
        package var crf: Double
        package var targetSSIMY: Double?
        package var predictedSSIMY: Double?
        /// The probe encodes the choice was read from, by CRF: two, or three for a codec whose choice was its higher
        /// probe (read between the top two); empty for a rung that was not probed.
        package var probes: [RateProbePoint]

        enum CodingKeys: String, CodingKey {
            case id, rung, crf, probes
            case videoCodec = "video_codec"
            case targetSSIMY = "target_ssim_y"
            case predictedSSIMY = "predicted_ssim_y"
        }
    }

    /// Why the first probes stopped the analysis.
    package enum StopReason: String, Codable, Sendable {
        /// The higher CRF saved under 5 % of the bytes: the VBV cap or the picture holds the rate.
        case noSaving = "no_saving"
        /// SSIM-Y reached its floor (the rung's target, or the allowed drop) within one CRF step.
        case qualityBinds = "quality_binds"
    }

    /// The first probes of an H.264-only ladder: one rung's two CRFs over the clip's first second
    /// (`RateAnalyzer.firstProbeSeconds`), read from the ladder's own encode of the rung and one more encoder beside
    /// it (`FirstProbeTrial`). When they show no headroom (`stopped`), nothing else is probed and the ladder goes on
    /// as the plain one: a clip with nothing to save costs one short encode and two read-backs more. Otherwise the
    /// ladder stops, the analysis probes every rung and window, and the ladder starts again at the chosen CRFs.
    package struct FirstProbes: Codable, Sendable {
        package var rung: String
        package var windowStart: Double
        package var seconds: Double
        /// At the rung's CRF (the ladder's own encode: no `encode_cpu_seconds`) and at the higher one.
        package var probes: [RateProbePoint]
        /// nil: the analysis went on, over every rung and window.
        package var stopped: StopReason?
        /// CPU seconds the first probes added: the higher encoder and both read-backs.
        package var cpuSeconds: Double
        /// Seconds of the ladder encoded before they found headroom, and thrown away; nil when they stopped.
        package var discardedSeconds: Double?

        enum CodingKeys: String, CodingKey {
            case rung, seconds, probes, stopped
            case windowStart = "window_start"
            case cpuSeconds = "cpu_seconds"
            case discardedSeconds = "discarded_ladder_seconds"
        }
    }

    /// Where the sampled windows start in the clip, in seconds, and how long each one is.
    package var windowStarts: [Double]
    package var windowSeconds: Double
    /// CPU (every thread) and wall time the analysis took, before the ladder's own encode; with first probes that
    /// stopped it, their CPU, and the time until they decided (the ladder encoding meanwhile).
    package var cpuSeconds: Double
    package var elapsedSeconds: Double
    package var renditions: [Rendition]
    /// nil for a ladder with other codecs: they aim at every rung's H.264 quality, which only the full pass predicts.
    package var firstProbes: FirstProbes?

    enum CodingKeys: String, CodingKey {
        case renditions
        case firstProbes = "first_probes"
        case windowStarts = "window_starts"
        case windowSeconds = "window_seconds"
        case cpuSeconds = "cpu_seconds"
        case elapsedSeconds = "elapsed_seconds"
    }
}
