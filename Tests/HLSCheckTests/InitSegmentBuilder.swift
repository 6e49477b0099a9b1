/// Init segments built byte by byte: one video track whose sample entry holds exactly the configuration record and
/// `colr` boxes a test asks for, enough for `InitSegment.parse` and the checker.
enum InitSegmentBuilder {
    static func box(_ type: String, _ payload: [UInt8]) -> [UInt8] {
        be32(payload.count + 8) + Array(type.utf8) + payload
    }

    static func be16(_ value: Int) -> [UInt8] { [UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)] }
    static func be32(_ value: Int) -> [UInt8] { be16(value >> 16) + be16(value & 0xFFFF) }

    /// A `colr` box of type `nclx` (with the range flag) or `nclc` (without).
    static func colour(
        _ type: String = "nclx", primaries: Int, transfer: Int, matrix: Int, fullRange: Bool = false
    ) -> [UInt8] {
        box(
            "colr",
            Array(type.utf8) + be16(primaries) + be16(transfer) + be16(matrix)
                + (type == "nclx" ? [fullRange ? 0x80 : 0] : []))
    }

    /// An AVCDecoderConfigurationRecord holding `sps` and one dummy PPS.
    static func avcC(_ sps: [UInt8]) -> [UInt8] {
        let profile = sps.count > 1 ? sps[1] : 0x64
        return box(
            "avcC",
            [0x01, profile, 0x00, 0x1F, 0xFF, 0xE1] + be16(sps.count) + sps + [0x01] + be16(4) + [
                0x68, 0xEB, 0xE3, 0xCB,
            ])
    }

    /// ftyp, then a moov with one video track (id 1, 90 kHz, `width`×`height`) and its trex.
    static func video(
        format: String = "avc1", width: Int = 180, height: Int = 320, children: [[UInt8]]
    ) -> [UInt8] {
        let tkhd = box(
            "tkhd",
            [0, 0, 0, 3] + be32(0) + be32(0) + be32(1) + be32(0) + be32(0) + [UInt8](repeating: 0, count: 16)
                + [UInt8](repeating: 0, count: 36) + be32(width << 16) + be32(height << 16))
        let mdhd = box("mdhd", [0, 0, 0, 0] + be32(0) + be32(0) + be32(90_000) + be32(0) + [0x55, 0xC4, 0, 0])
        let hdlr = box("hdlr", [0, 0, 0, 0] + be32(0) + Array("vide".utf8) + [UInt8](repeating: 0, count: 12) + [0])
        let entry = box(
            format,
            [0, 0, 0, 0, 0, 0, 0, 1] + [UInt8](repeating: 0, count: 16) + be16(width) + be16(height)
                + be32(0x0048_0000) + be32(0x0048_0000) + be32(0) + be16(1) + [UInt8](repeating: 0, count: 32)
                + be16(0x18) + [0xFF, 0xFF] + children.flatMap { $0 })
        let stsd = box("stsd", [0, 0, 0, 0] + be32(1) + entry)
        let stbl = box("stbl", stsd)
        let minf = box("minf", stbl)
        let mdia = box("mdia", mdhd + hdlr + minf)
        let trak = box("trak", tkhd + mdia)
        let trex = box("trex", [0, 0, 0, 0] + be32(1) + be32(1) + be32(0) + be32(0) + be32(0))
        let moov = box("moov", trak + box("mvex", trex))
        return box("ftyp", Array("iso6".utf8) + be32(0) + Array("iso6mp41".utf8)) + moov
    }
}

/// Writes an H.264 RBSP the way `BitReader` reads it, to build sequence parameter sets with chosen fields.
struct BitWriter {
    private(set) var bits: [Bool] = []

    mutating func put(_ value: Int, bits count: Int) {
        for shift in stride(from: count - 1, through: 0, by: -1) { bits.append(value >> shift & 1 == 1) }
    }

    mutating func flag(_ value: Bool) { bits.append(value) }

    mutating func unsignedGolomb(_ value: Int) {
        let code = value + 1
        let length = Int.bitWidth - code.leadingZeroBitCount
        put(0, bits: length - 1)
        put(code, bits: length)
    }

    mutating func signedGolomb(_ value: Int) { unsignedGolomb(value > 0 ? 2 * value - 1 : -2 * value) }

    /// The bits with the RBSP stop bit, padded to a byte, and emulation prevention bytes inserted as an encoder
    /// must (a 0x03 after two zero bytes, before any byte of 0x03 or less).
    var nalPayload: [UInt8] {
        var all = bits + [true]
        while all.count % 8 != 0 { all.append(false) }
        var bytes: [UInt8] = []
        var zeros = 0
        for start in stride(from: 0, to: all.count, by: 8) {
            let byte = all[start..<start + 8].reduce(UInt8(0)) { $0 << 1 | ($1 ? 1 : 0) }
            if zeros >= 2, byte <= 3 {
                bytes.append(3)
                zeros = 0
            }
            bytes.append(byte)
            zeros = byte == 0 ? zeros + 1 : 0
        }
        return bytes
    }
}

/// The fields of an SPS a test chooses; the rest are what x264 writes for a small picture.
struct SPSFields {
    var profile = 100
    var lumaBitDepth = 8
    var scalingLists = false
    var pictureOrderCountType = 0
    var cropping = false
    var extendedSAR = false
    /// (full range, primaries, transfer, matrix); nil writes no VUI at all.
    var signal: (fullRange: Bool, primaries: Int, transfer: Int, matrix: Int)?

    /// The whole NAL unit, header byte first.
    var nal: [UInt8] {
        var writer = BitWriter()
        writer.put(profile, bits: 8)
        writer.put(0, bits: 8)  // constraint flags
        writer.put(31, bits: 8)  // level 3.1
        writer.unsignedGolomb(0)  // seq_parameter_set_id
        if [100, 110, 122, 244].contains(profile) {
            writer.unsignedGolomb(1)  // 4:2:0
            writer.unsignedGolomb(lumaBitDepth - 8)
            writer.unsignedGolomb(lumaBitDepth - 8)
            writer.flag(false)  // qpprime_y_zero_transform_bypass_flag
            writer.flag(scalingLists)
            if scalingLists {
                for list in 0..<8 {
                    writer.flag(list % 2 == 0)
                    guard list % 2 == 0 else { continue }
                    // A few deltas, then a jump to 0 that ends the list early (the rest repeat the last scale).
                    for delta in [3, -2, 5, -14] { writer.signedGolomb(delta) }
                }
            }
        }
        writer.unsignedGolomb(0)  // log2_max_frame_num_minus4
        writer.unsignedGolomb(pictureOrderCountType)
        if pictureOrderCountType == 0 { writer.unsignedGolomb(2) }
        if pictureOrderCountType == 1 {
            writer.flag(false)
            writer.signedGolomb(-1)
            writer.signedGolomb(2)
            writer.unsignedGolomb(2)
            writer.signedGolomb(4)
            writer.signedGolomb(-3)
        }
        writer.unsignedGolomb(3)  // max_num_ref_frames
        writer.flag(false)  // gaps_in_frame_num_value_allowed_flag
        writer.unsignedGolomb(10)  // pic_width_in_mbs_minus1: 176
        writer.unsignedGolomb(19)  // pic_height_in_map_units_minus1: 320
        writer.flag(true)  // frame_mbs_only_flag
        writer.flag(true)  // direct_8x8_inference_flag
        writer.flag(cropping)
        if cropping { for value in [0, 2, 0, 0] { writer.unsignedGolomb(value) } }
        writer.flag(signal != nil)  // vui_parameters_present_flag
        if let signal {
            writer.flag(extendedSAR)  // aspect_ratio_info_present_flag
            if extendedSAR {
                writer.put(255, bits: 8)
                writer.put(0, bits: 16)  // sar_width 0: zero bytes that need emulation prevention
                writer.put(1, bits: 16)
            }
            writer.flag(false)  // overscan_info_present_flag
            writer.flag(true)  // video_signal_type_present_flag
            writer.put(5, bits: 3)  // video_format: unspecified
            writer.flag(signal.fullRange)
            writer.flag(true)  // colour_description_present_flag
            writer.put(signal.primaries, bits: 8)
            writer.put(signal.transfer, bits: 8)
            writer.put(signal.matrix, bits: 8)
            writer.flag(false)  // chroma_loc_info_present_flag, and nothing after it is read
        }
        return [0x67] + writer.nalPayload
    }
}
