internal import LibAV
internal import MediaModel

/// The 10-bit HEVC rendition an HDR upload gets beside its SDR ladder when the ladder has HEVC: the top rung from
/// the unconverted pictures, keeping the source's transfer, primaries and matrix and its mastering display and light
/// levels (HDR10 SEI), listed with `VIDEO-RANGE=HLG` or `PQ` so that only HDR screens pick it.
struct HDRRendition: Sendable {
    let range: TranscodeSummary.VideoRange
    /// The source's tags, kept in the stream (VUI and `colr`).
    let color: ColorDescription
    let colour: VideoColour

    /// nil for SDR sources.
    init?(_ colour: VideoColour?, tags: ColorDescription) {
        guard let colour else { return nil }
        switch colour.dynamicRange {
        case .sdr: return nil
        case .hlg: range = .hlg
        case .pq: range = .pq
        }
        self.colour = colour
        // Limited range always (what is encoded); the transfer as the range says, whatever a Dolby Vision base
        // layer's own tags left unspecified.
        var kept = tags
        kept.range = ColorDescription.bt709.range
        kept.transfer = range == .pq ? ColorDescription.pqTransfer : ColorDescription.hlgTransfer
        if kept.primaries == 2 || kept.primaries == 0 { kept.primaries = ColorDescription.bt2020Primaries }
        if kept.space == 2 || kept.space == 0 { kept.space = ColorDescription.bt2020Matrix }
        color = kept
    }

    /// x265's HDR10 signalling for PQ: the mastering display (in its units of 0.00002 for xy and 0.0001 cd/m²) and
    /// the light levels, as SEI with every IDR; HLG needs none beyond its transfer tag.
    var x265Parameters: [String] {
        guard range == .pq else { return [] }
        var parameters = ["hdr10=1"]
        if let xy = colour.masteringPrimaries, xy.count == 8, let peak = colour.masteringPeakNits {
            func c(_ v: Double) -> Int { Int((v / 0.00002).rounded()) }
            let black = Int(((colour.masteringBlackNits ?? 0) / 0.0001).rounded())
            parameters.append(
                "master-display=G(\(c(xy[2])),\(c(xy[3])))B(\(c(xy[4])),\(c(xy[5])))R(\(c(xy[0])),\(c(xy[1])))"
                    + "WP(\(c(xy[6])),\(c(xy[7])))L(\(Int((peak / 0.0001).rounded())),\(black))")
        }
        if let cll = colour.maxContentLightLevel {
            parameters.append("max-cll=\(cll),\(colour.maxFrameAverageLightLevel ?? 0)")
        }
        return parameters
    }
}
