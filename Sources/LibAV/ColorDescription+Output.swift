internal import CFFmpeg

extension ColorDescription {
    /// BT.601 (SMPTE 170M) limited range, the usual tags of SD video.
    package static let bt601 = ColorDescription(
        range: AVCOL_RANGE_MPEG.rawValue, primaries: AVCOL_PRI_SMPTE170M.rawValue,
        transfer: AVCOL_TRC_SMPTE170M.rawValue, space: AVCOL_SPC_SMPTE170M.rawValue
    )

    /// The tags an 8-bit SDR output should carry: the source's when it states them (always limited range,
    /// which is what is encoded), otherwise the usual guess by size (BT.709 from 720 lines up, else BT.601).
    package func forOutput(shortSide: Int) -> ColorDescription {
        let fallback = shortSide >= 720 ? ColorDescription.bt709 : .bt601
        return ColorDescription(
            range: AVCOL_RANGE_MPEG.rawValue,
            primaries: primaries == AVCOL_PRI_UNSPECIFIED.rawValue || primaries == AVCOL_PRI_RESERVED0.rawValue
                ? fallback.primaries : primaries,
            transfer: transfer == AVCOL_TRC_UNSPECIFIED.rawValue || transfer == AVCOL_TRC_RESERVED0.rawValue
                ? fallback.transfer : transfer,
            space: space == AVCOL_SPC_UNSPECIFIED.rawValue || space == AVCOL_SPC_RGB.rawValue ? fallback.space : space
        )
    }
}

extension InputContext {
    /// The colour tags the container/bitstream headers declare for a stream.
    /// - Throws: `AVError` when `index` names no stream.
    package func colorDescription(ofStream index: Int) throws(AVError) -> ColorDescription {
        let stream = try checkedStream(at: index, of: pointer, "colorDescription(ofStream:)")
        let parameters = stream.pointee.codecpar.pointee
        return ColorDescription(
            range: parameters.color_range.rawValue, primaries: parameters.color_primaries.rawValue,
            transfer: parameters.color_trc.rawValue, space: parameters.color_space.rawValue)
    }

    /// Whether the stream's first picture will arrive in a format `Frame.rotated` handles without conversion.
    /// - Throws: `AVError` when `index` names no stream.
    package func pixelFormat(ofStream index: Int) throws(AVError) -> PixelFormat {
        let stream = try checkedStream(at: index, of: pointer, "pixelFormat(ofStream:)")
        return PixelFormat(rawValue: stream.pointee.codecpar.pointee.format)
    }
}

extension ColorDescription {
    /// libav's names for the tags ("bt2020nc", "bt2020", "arib-std-b67", "tv"), as `ffprobe` prints them.
    package var names: (range: String, primaries: String, transfer: String, space: String) {
        func name(_ text: UnsafePointer<CChar>?) -> String { text.map { String(cString: $0) } ?? "unknown" }
        return (
            name(av_color_range_name(AVColorRange(rawValue: range))),
            name(av_color_primaries_name(AVColorPrimaries(rawValue: primaries))),
            name(av_color_transfer_name(AVColorTransferCharacteristic(rawValue: transfer))),
            name(av_color_space_name(AVColorSpace(rawValue: space)))
        )
    }

    /// The transfer is SMPTE ST 2084 (PQ).
    package var isPQ: Bool { transfer == AVCOL_TRC_SMPTE2084.rawValue }
    /// The transfer is ARIB STD-B67 (HLG).
    package var isHLG: Bool { transfer == AVCOL_TRC_ARIB_STD_B67.rawValue }
    /// Full-range ("pc", "jpeg") samples.
    package var isFullRange: Bool { range == AVCOL_RANGE_JPEG.rawValue }
    /// Tags a transfer of its own (not unspecified or reserved).
    package var statesTransfer: Bool {
        transfer != AVCOL_TRC_UNSPECIFIED.rawValue && transfer != AVCOL_TRC_RESERVED0.rawValue
            && transfer != AVCOL_TRC_RESERVED.rawValue
    }
}

extension ColorDescription {
    /// Raw tag values an HDR rendition keeps (libav's enums, for domain code that does not import C).
    package static let pqTransfer = AVCOL_TRC_SMPTE2084.rawValue
    package static let hlgTransfer = AVCOL_TRC_ARIB_STD_B67.rawValue
    package static let bt2020Primaries = AVCOL_PRI_BT2020.rawValue
    package static let bt2020Matrix = AVCOL_SPC_BT2020_NCL.rawValue
}
