/// A video stream's colour as its tags and side data state it, and which dynamic range that makes it.
public struct VideoColour: Codable, Sendable, Equatable {
    /// libav's names, as ffprobe prints them: "bt2020", "arib-std-b67", "bt2020nc", "tv".
    public var primaries: String
    public var transfer: String
    public var matrix: String
    public var range: String
    public var dynamicRange: DynamicRange
    /// The Dolby Vision profile and base-layer compatibility ("8.4", "8.1", "5"), when the stream is Dolby Vision.
    public var dolbyVision: String?
    /// SMPTE ST 2086 mastering display peak and black, cd/m².
    public var masteringPeakNits: Double?
    public var masteringBlackNits: Double?
    /// The mastering display's primaries and white point, CIE xy: red x, y, green x, y, blue x, y, white x, y.
    public var masteringPrimaries: [Double]?
    /// CTA-861.3 MaxCLL and MaxFALL, cd/m².
    public var maxContentLightLevel: Int?
    public var maxFrameAverageLightLevel: Int?

    public init(
        primaries: String, transfer: String, matrix: String, range: String, dynamicRange: DynamicRange,
        dolbyVision: String? = nil, masteringPeakNits: Double? = nil, masteringBlackNits: Double? = nil,
        maxContentLightLevel: Int? = nil, maxFrameAverageLightLevel: Int? = nil, masteringPrimaries: [Double]? = nil
    ) {
        self.masteringPrimaries = masteringPrimaries
        self.primaries = primaries
        self.transfer = transfer
        self.matrix = matrix
        self.range = range
        self.dynamicRange = dynamicRange
        self.dolbyVision = dolbyVision
        self.masteringPeakNits = masteringPeakNits
        self.masteringBlackNits = masteringBlackNits
        self.maxContentLightLevel = maxContentLightLevel
        self.maxFrameAverageLightLevel = maxFrameAverageLightLevel
    }

    enum CodingKeys: String, CodingKey {
        case primaries, transfer, matrix, range
        case dynamicRange = "dynamic_range"
        case dolbyVision = "dolby_vision"
        case masteringPeakNits = "mastering_peak_nits"
        case masteringBlackNits = "mastering_black_nits"
        case masteringPrimaries = "mastering_primaries"
        case maxContentLightLevel = "max_cll"
        case maxFrameAverageLightLevel = "max_fall"
    }
}

/// SDR, or one of BT.2100's two HDR transfers; the names are HLS's `VIDEO-RANGE` values.
public enum DynamicRange: String, Codable, Sendable, CaseIterable {
    case sdr = "SDR"
    case hlg = "HLG"
    case pq = "PQ"

    /// The range a stream is in: its transfer tag, or else what its Dolby Vision base layer is compatible with
    /// (`dv_bl_signal_compatibility_id`: 1 and 6 HDR10/PQ, 4 HLG, 2 SDR).
    public static func of(transfer: String, dolbyVisionCompatibility: Int?) -> DynamicRange {
        switch transfer {
        case "smpte2084": return .pq
        case "arib-std-b67": return .hlg
        default:
            switch dolbyVisionCompatibility {
            case 1, 6: return .pq
            case 4: return .hlg
            default: return .sdr
            }
        }
    }
}
