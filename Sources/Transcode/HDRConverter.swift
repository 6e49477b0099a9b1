internal import Ingest
internal import LibAV
internal import MediaModel
internal import Synchronization
internal import ToneMapping

/// Turns an HDR source's decoded pictures (HLG, PQ, Dolby Vision's compatible base layer) into BT.709 SDR once,
/// at the source's size, before they are made upright and scaled: every rung, the poster and the storyboard then
/// start from the same SDR picture, and the top rung at the source's size takes it as it is. The conversion
/// (`HDRToSDRConversion`, docs/hls.md) is sampled into a lookup table once per transcode.
///
/// `@unchecked Sendable`: its format scaler is used by one decode loop at a time (the rate probes, then the ladder's
/// session, in turn, never at once); the table is immutable.
final class HDRConverter: @unchecked Sendable {
    let source: HDRSource
    private let table: YUVLookupTable
    private var widener: (scaler: Scaler, input: (Int, Int, PixelFormat))?

    /// The last table made, kept for the transcode's other passes (rate probes, a rendition encoded again).
    private static let lastTable = Mutex<(source: HDRSource, table: YUVLookupTable)?>(nil)

    /// - Throws: `AVError` if the sampled table does not have the layout LibAV applies.
    init(source: HDRSource) throws(AVError) {
        self.source = source
        if let cached = Self.lastTable.withLock({ $0 }), cached.source == source {
            table = cached.table
        } else {
            let sampled = ToneMapTable(HDRToSDRConversion(source: source))
            table = try YUVLookupTable(luma: sampled.luma, chroma: sampled.chroma)
            let made = (source, table)
            Self.lastTable.withLock { $0 = made }
        }
    }

    /// The converter an admitted upload needs: nil when it is SDR.
    static func make(for admitted: AdmittedVideo) throws(AVError) -> HDRConverter? {
        try source(for: admitted.info.video?.colour).map { source throws(AVError) in try HDRConverter(source: source) }
    }

    /// The picture in BT.709 SDR, yuv420p, tagged BT.709. Formats other than 4:2:0 are first brought to 10-bit 4:2:0.
    func convert(_ frame: Frame) throws(AVError) -> Frame {
        var input = frame
        if ![PixelFormat.yuv420p10, .yuv420p, .yuvj420p].contains(frame.pixelFormat) {
            let wanted = (frame.width, frame.height, frame.pixelFormat)
            if widener == nil || widener!.input != wanted {
                widener = (
                    try Scaler(
                        inputWidth: frame.width, inputHeight: frame.height, inputFormat: frame.pixelFormat,
                        outputWidth: frame.width, outputHeight: frame.height, outputFormat: .yuv420p10,
                        filter: .bicubic),
                    wanted
                )
            }
            input = try widener!.scaler.scale(frame)
        }
        let converted = try input.mapped(through: table, threads: 2)
        converted.colorDescription = .bt709
        return converted
    }

    /// What to convert for a stream of this colour: nil for SDR. The peak is PQ's MaxCLL, else its mastering
    /// display's peak, else 1000 cd/m² (BT.2408's usual grade); HLG's is its nominal 1000 cd/m² display.
    static func source(for colour: VideoColour?) -> HDRSource? {
        guard let colour else { return nil }
        let transfer: HDRSource.Transfer
        switch colour.dynamicRange {
        case .sdr: return nil
        case .pq: transfer = .pq
        case .hlg: transfer = .hlg
        }
        let matrix: LumaCoefficients =
            switch colour.matrix {
            case "bt709": .bt709
            case "smpte170m", "bt470bg": .bt601
            default: .bt2020
            }
        let primaries: Primaries =
            switch colour.primaries {
            case "bt709": .bt709
            case "smpte432": .displayP3
            default: .bt2020
            }
        var peak = HDRSource.nominalPeak
        if transfer == .pq {
            let stated = colour.maxContentLightLevel.map(Double.init) ?? colour.masteringPeakNits
            peak = min(max(stated ?? HDRSource.nominalPeak, HDRSource.referenceWhite), 10000)
        }
        return HDRSource(
            transfer: transfer, matrix: matrix, primaries: primaries, isFullRange: colour.range == "pc", peak: peak)
    }
}
