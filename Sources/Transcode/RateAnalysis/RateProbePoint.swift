/// One probe encode's result: a rendition's sampled windows encoded at one CRF and read back.
package struct RateProbePoint: Codable, Sendable, Equatable {
    package var crf: Double
    /// Mean SSIM-Y of the decoded pictures against the rung's scaled source pictures.
    package var ssimY: Double
    /// The encoded windows' video bitrate.
    package var kilobitsPerSecond: Double
    /// CPU seconds the probe's encoder used (its threads and the calls into it), as `encode_cpu_seconds` counts a
    /// rendition's: what probing cost each codec, apart from the decode and scaling the probes share.
    package var encodeCPUSeconds: Double?

    package init(crf: Double, ssimY: Double, kilobitsPerSecond: Double, encodeCPUSeconds: Double? = nil) {
        self.crf = crf
        self.ssimY = ssimY
        self.kilobitsPerSecond = kilobitsPerSecond
        self.encodeCPUSeconds = encodeCPUSeconds
    }

    enum CodingKeys: String, CodingKey {
        case crf
        case ssimY = "ssim_y"
        case kilobitsPerSecond = "kbps"
        case encodeCPUSeconds = "encode_cpu_seconds"
    }
}
