/// One probe encode's result: a rendition's sampled windows encoded at one CRF and read back.
public struct RateProbePoint: Codable, Sendable, Equatable {
    public var crf: Int
    /// Mean SSIM-Y of the decoded pictures against the rung's scaled source pictures.
    public var ssimY: Double
    /// The encoded windows' video bitrate.
    public var kilobitsPerSecond: Double

    public init(crf: Int, ssimY: Double, kilobitsPerSecond: Double) {
        self.crf = crf
        self.ssimY = ssimY
        self.kilobitsPerSecond = kilobitsPerSecond
    }

    enum CodingKeys: String, CodingKey {
        case crf
        case ssimY = "ssim_y"
        case kilobitsPerSecond = "kbps"
    }
}
