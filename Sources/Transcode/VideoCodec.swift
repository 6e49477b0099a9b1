/// A video codec a ladder makes rungs in. Every codec makes the full set of rungs from the same decoded, upright,
/// constant-frame-rate pictures, scaled once per rung.
package enum VideoCodec: String, Codable, Sendable, CaseIterable, Comparable {
    case h264, hevc, av1

    /// The libavcodec encoder.
    var encoderName: String {
        switch self {
        case .h264: "libx264"
        case .hevc: "libx265"
        case .av1: "libsvtav1"
        }
    }

    /// The encoder's CRF scale: x264 and x265 run 0–51, SVT-AV1 1–63 (it has no lossless 0). The preset's checks
    /// and the content-aware choice both keep to it.
    var crfRange: ClosedRange<Int> {
        switch self {
        case .h264, .hevc: 0...51
        case .av1: 1...63
        }
    }

    /// The finest CRF step the encoder takes: x264's and x265's rate factor is continuous, so they read a fractional
    /// CRF (a tenth here, finer than the probes can tell apart); SVT-AV1 reads a whole one. On an easy clip a whole
    /// step of x264's CRF costs about 0.002 SSIM-Y, most of what content-aware rates may spend.
    var crfStep: Double { self == .av1 ? 1 : 0.1 }

    /// `value` moved down onto the codec's CRF grid (`crfStep`) and into its scale (`crfRange`).
    func crf(onGrid value: Double) -> Double {
        let steps = (value / crfStep + 1e-6).rounded(.down)
        let snapped = (steps * crfStep * 10).rounded() / 10
        return min(max(snapped, Double(crfRange.lowerBound)), Double(crfRange.upperBound))
    }

    /// A CRF as the encoder's `crf` option reads it: `21`, `22.4`.
    static func optionText(crf: Double) -> String {
        let tenths = Int((crf * 10).rounded())
        return tenths % 10 == 0 ? String(tenths / 10) : "\(tenths / 10).\(tenths % 10)"
    }

    /// The rendition's id and folder: H.264 keeps the bare rung id (as every ladder before other codecs), the others
    /// add their name (`720p-hevc`).
    package func renditionID(rung: String) -> String {
        self == .h264 ? rung : "\(rung)-\(rawValue)"
    }

    /// The order the master lists variants in: H.264 first, the fallback every player decodes.
    package static func < (a: VideoCodec, b: VideoCodec) -> Bool {
        allCases.firstIndex(of: a)! < allCases.firstIndex(of: b)!
    }
}
