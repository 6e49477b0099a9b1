/// What the checker reads from an H.264 sequence parameter set (ITU-T H.264 §7.3.2.1.1 and Annex E.1.1): the bit
/// depth, and the colour of `video_signal_type` in the VUI, which a player uses when the sample entry has no `colr`.
struct H264SequenceParameterSet: Equatable {
    var profile: UInt8
    var lumaBitDepth = 8
    var chromaBitDepth = 8
    /// nil when there is no VUI `video_signal_type`; without a `colour_description` in it, the code points are
    /// unspecified and only the range flag is said.
    var colour: VideoColour?

    /// Profiles whose SPS carries chroma format, bit depths and scaling matrices (§7.3.2.1.1).
    private static let highProfiles: Set<UInt8> = [100, 110, 122, 244, 44, 83, 86, 118, 128, 138, 139, 134, 135]

    /// Parses a whole SPS NAL unit, header byte included.
    /// - Throws: `MediaParseError` when it is not an SPS, or ends before the fields read here.
    static func parse(_ nal: ArraySlice<UInt8>) throws(MediaParseError) -> H264SequenceParameterSet {
        guard let header = nal.first, header & 0x1F == 7 else { throw MediaParseError("not an H.264 SPS NAL unit") }
        var reader = BitReader(BitReader.rbsp(nal.dropFirst()))
        let profile = UInt8(try reader.bits(8))
        var result = H264SequenceParameterSet(profile: profile)
        _ = try reader.bits(16)  // constraint_set flags, reserved_zero_2bits, level_idc
        _ = try reader.unsignedGolomb()  // seq_parameter_set_id
        if highProfiles.contains(profile) {
            let chromaFormat = try reader.unsignedGolomb()
            if chromaFormat == 3 { _ = try reader.bit() }  // separate_colour_plane_flag
            result.lumaBitDepth = 8 + Int(try reader.unsignedGolomb())
            result.chromaBitDepth = 8 + Int(try reader.unsignedGolomb())
            _ = try reader.bit()  // qpprime_y_zero_transform_bypass_flag
            if try reader.flag() {  // seq_scaling_matrix_present_flag
                for list in 0..<(chromaFormat != 3 ? 8 : 12) {
                    if try reader.flag() { try skipScalingList(&reader, size: list < 6 ? 16 : 64) }
                }
            }
        }
        _ = try reader.unsignedGolomb()  // log2_max_frame_num_minus4
        switch try reader.unsignedGolomb() {  // pic_order_cnt_type
        case 0: _ = try reader.unsignedGolomb()  // log2_max_pic_order_cnt_lsb_minus4
        case 1:
            _ = try reader.bit()  // delta_pic_order_always_zero_flag
            _ = try reader.signedGolomb()  // offset_for_non_ref_pic
            _ = try reader.signedGolomb()  // offset_for_top_to_bottom_field
            let cycle = try reader.unsignedGolomb()
            guard cycle <= 255 else { throw MediaParseError("num_ref_frames_in_pic_order_cnt_cycle is \(cycle)") }
            for _ in 0..<cycle { _ = try reader.signedGolomb() }
        default: break
        }
        _ = try reader.unsignedGolomb()  // max_num_ref_frames
        _ = try reader.bit()  // gaps_in_frame_num_value_allowed_flag
        _ = try reader.unsignedGolomb()  // pic_width_in_mbs_minus1
        _ = try reader.unsignedGolomb()  // pic_height_in_map_units_minus1
        if try !reader.flag() { _ = try reader.bit() }  // frame_mbs_only_flag, mb_adaptive_frame_field_flag
        _ = try reader.bit()  // direct_8x8_inference_flag
        if try reader.flag() {  // frame_cropping_flag
            for _ in 0..<4 { _ = try reader.unsignedGolomb() }
        }
        guard try reader.flag() else { return result }  // vui_parameters_present_flag
        if try reader.flag() {  // aspect_ratio_info_present_flag
            if try reader.bits(8) == 255 { _ = try reader.bits(32) }  // Extended_SAR: sar_width, sar_height
        }
        if try reader.flag() { _ = try reader.bit() }  // overscan_info_present_flag, overscan_appropriate_flag
        guard try reader.flag() else { return result }  // video_signal_type_present_flag
        _ = try reader.bits(3)  // video_format
        var colour = VideoColour(origin: .sequenceParameterSet)
        colour.isFullRange = try reader.flag()
        if try reader.flag() {  // colour_description_present_flag
            colour.primaries = UInt16(try reader.bits(8))
            colour.transfer = UInt16(try reader.bits(8))
            colour.matrix = UInt16(try reader.bits(8))
        }
        result.colour = colour
        return result
    }

    /// `scaling_list()` (§7.3.2.1.1.1): only its delta_scale codes take bits.
    private static func skipScalingList(_ reader: inout BitReader, size: Int) throws(MediaParseError) {
        var last: Int64 = 8, next: Int64 = 8
        for _ in 0..<size {
            if next != 0 {
                let delta = try reader.signedGolomb()
                next = ((last + delta) % 256 + 256) % 256
            }
            last = next == 0 ? last : next
        }
    }
}
