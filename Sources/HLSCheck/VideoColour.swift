/// The colour a video track is tagged with: ITU-T H.273 code points for colour primaries, transfer characteristics
/// and matrix coefficients, the full-range flag, and where they were read. Untagged video is all "unspecified" (2).
package struct VideoColour: Equatable, CustomStringConvertible {
    /// Where the tags came from, for findings: a player reads the `colr` box first, then the bitstream.
    package enum Origin: Equatable {
        /// The sample entry's `colr` box (`nclx`, or QuickTime's `nclc`, which has no range flag).
        case colourBox
        /// The H.264 sequence parameter set's VUI (`video_signal_type`), the `colr` box being absent.
        case sequenceParameterSet
        /// Neither says anything.
        case none
    }

    package static let unspecified: UInt16 = 2
    /// SMPTE ST 2084, the perceptual quantizer of HDR10 and Dolby Vision.
    package static let perceptualQuantizer: UInt16 = 16
    /// ARIB STD-B67, hybrid log-gamma.
    package static let hybridLogGamma: UInt16 = 18

    package var primaries: UInt16 = VideoColour.unspecified
    package var transfer: UInt16 = VideoColour.unspecified
    package var matrix: UInt16 = VideoColour.unspecified
    package var isFullRange = false
    package var origin = Origin.none

    /// The tags as a player applies them; the origin is not one.
    package func sameTags(as other: VideoColour) -> Bool {
        (primaries, transfer, matrix, isFullRange)
            == (other.primaries, other.transfer, other.matrix, other.isFullRange)
    }

    /// Whether the transfer is one of the two HDR ones (PQ or HLG).
    package var isHDR: Bool { transfer == Self.perceptualQuantizer || transfer == Self.hybridLogGamma }

    /// The VIDEO-RANGE this transfer calls for: PQ for 16, HLG for 18, SDR for any other (draft-pantos-hls-rfc8216bis
    /// §4.4.6.2; an unspecified transfer is not HDR, so SDR too).
    package var videoRange: String {
        switch transfer {
        case Self.perceptualQuantizer: "PQ"
        case Self.hybridLogGamma: "HLG"
        default: "SDR"
        }
    }

    /// "primaries 1 (bt709), transfer 16 (smpte2084), matrix 1 (bt709), limited range", names as FFmpeg prints them.
    package var description: String {
        "primaries \(Self.name(primaries, Self.primaryNames)), transfer \(Self.name(transfer, Self.transferNames)), "
            + "matrix \(Self.name(matrix, Self.matrixNames)), \(isFullRange ? "full" : "limited") range"
    }

    /// "transfer 18 (arib-std-b67)".
    package var transferDescription: String { "transfer \(Self.name(transfer, Self.transferNames))" }

    package var originDescription: String {
        switch origin {
        case .colourBox: "the 'colr' box"
        case .sequenceParameterSet: "the SPS VUI (no 'colr' box)"
        case .none: "no 'colr' box and no colour in the bitstream header"
        }
    }

    private static func name(_ code: UInt16, _ names: [UInt16: String]) -> String {
        names[code].map { "\(code) (\($0))" } ?? String(code)
    }

    private static let primaryNames: [UInt16: String] = [
        1: "bt709", 2: "unspecified", 4: "bt470m", 5: "bt470bg", 6: "smpte170m", 7: "smpte240m", 8: "film",
        9: "bt2020", 10: "smpte428", 11: "smpte431", 12: "smpte432", 22: "ebu3213",
    ]
    private static let transferNames: [UInt16: String] = [
        1: "bt709", 2: "unspecified", 4: "gamma22", 5: "gamma28", 6: "smpte170m", 7: "smpte240m", 8: "linear",
        9: "log100", 10: "log316", 11: "iec61966-2-4", 12: "bt1361e", 13: "iec61966-2-1", 14: "bt2020-10",
        15: "bt2020-12", 16: "smpte2084", 17: "smpte428", 18: "arib-std-b67",
    ]
    private static let matrixNames: [UInt16: String] = [
        0: "gbr", 1: "bt709", 2: "unspecified", 4: "fcc", 5: "bt470bg", 6: "smpte170m", 7: "smpte240m",
        8: "ycgco", 9: "bt2020nc", 10: "bt2020c", 11: "smpte2085", 12: "chroma-derived-nc", 13: "chroma-derived-c",
        14: "ictcp",
    ]
}

extension VideoColour {
    /// A `colr` box's payload (ISO/IEC 14496-12 §12.1.5): `nclx` carries the three code points and the full-range
    /// flag, QuickTime's `nclc` the code points alone; nil for ICC profiles (`rICC`, `prof`), which carry none.
    static func colourBox(_ payload: ArraySlice<UInt8>) throws(MediaParseError) -> VideoColour? {
        var cursor = ByteCursor(Array(payload))
        let type = try cursor.fourCC()
        guard type == "nclx" || type == "nclc" else { return nil }
        var colour = VideoColour(origin: .colourBox)
        colour.primaries = try cursor.u16()
        colour.transfer = try cursor.u16()
        colour.matrix = try cursor.u16()
        if type == "nclx" { colour.isFullRange = try cursor.u8() & 0x80 != 0 }
        return colour
    }
}
