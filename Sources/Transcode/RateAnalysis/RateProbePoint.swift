/// One probe encode's result: a rendition's sampled windows encoded at one CRF and read back.
public struct RateProbePoint: Codable, Sendable, Equatable {
    public var crf: Double
    /// Mean SSIM-Y of the decoded pictures against the rung's scaled source pictures.
    public var ssimY: Double
    /// The encoded windows' video bitrate.
    public var kilobitsPerSecond: Double
    /// CPU seconds the probe's encoder used (its threads and the calls into it), as `encode_cpu_seconds` counts a
    /// rendition's: what probing cost each codec, apart from the decode and scaling the probes share.
    public var encodeCPUSeconds: Double?

    public init(crf: Double, ssimY: Double, kilobitsPerSecond: Double, encodeCPUSeconds: Double? = nil) {
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
