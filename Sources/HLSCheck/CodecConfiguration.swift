/// What a sample entry's configuration box says about the stream: the RFC 6381 codec string a playlist's CODECS
/// must carry, and what the checker needs to read samples (the NAL length field size, AV1's still-picture flag).
package struct CodecConfiguration: Equatable {
    var codec: String
    /// Bytes in each NAL unit's length prefix (avcC/hvcC `lengthSizeMinusOne + 1`); nil for AV1 and audio.
    var nalLengthSize: Int?
    /// AV1 `reduced_still_picture_header`: every frame is a key frame and frame headers carry no frame type.
    var av1ReducedStillPicture = false
    /// Bits per luma sample, when the record says (or its profile allows nothing but 8); nil for audio.
    var bitDepth: Int?
    /// H.264 only: the colour the first SPS's VUI signals, which a player uses when there is no `colr` box.
    var sequenceColour: VideoColour?

    /// `avc1.PPCCLL` from an AVCDecoderConfigurationRecord (ISO/IEC 14496-15 §5.3.3.1): profile, constraint flags
    /// and level as two hex digits each. The bit depth and VUI colour come from the first SPS; an SPS that cannot be
    /// read leaves them to the record's high-profile fields, or to the profile (below High 10, only 8 bits).
    static func avc(_ format: String, _ payload: ArraySlice<UInt8>) throws(MediaParseError) -> CodecConfiguration {
        var cursor = ByteCursor(Array(payload))
        _ = try cursor.u8()  // configurationVersion
        let profile = try cursor.u8(), compatibility = try cursor.u8(), level = try cursor.u8()
        let lengthSize = Int(try cursor.u8() & 0x03) + 1
        let codec =
            format + "." + [profile, compatibility, level].map { String($0, radix: 16).leftPadded(to: 2) }.joined()
        var configuration = CodecConfiguration(codec: codec, nalLengthSize: lengthSize)
        // Baseline, Main, Extended and High allow 8 bits only; High 10 and above say it in the SPS.
        configuration.bitDepth = [66, 77, 88, 100].contains(profile) ? 8 : nil
        // A record cut short after its first bytes still names the codec; only the colour facts are lost.
        guard let sequenceParameterSets = try? parameterSets(&cursor) else { return configuration }
        if let first = sequenceParameterSets.first, let sps = try? H264SequenceParameterSet.parse(first) {
            configuration.bitDepth = sps.lumaBitDepth
            configuration.sequenceColour = sps.colour
        } else if [100, 110, 122, 144].contains(profile), cursor.remaining >= 4 {
            try cursor.skip(1)  // reserved, chroma_format
            configuration.bitDepth = 8 + Int(try cursor.u8() & 0x07)  // reserved, bit_depth_luma_minus8
        }
        return configuration
    }

    /// Reads the record's SPS and PPS arrays, leaving `cursor` after them; returns the SPS NAL units.
    private static func parameterSets(_ cursor: inout ByteCursor) throws(MediaParseError) -> [ArraySlice<UInt8>] {
        var sequence: [ArraySlice<UInt8>] = []
        for _ in 0..<Int(try cursor.u8() & 0x1F) { sequence.append(try cursor.take(Int(try cursor.u16()))) }
        for _ in 0..<Int(try cursor.u8()) { try cursor.skip(Int(try cursor.u16())) }
        return sequence
    }

    /// `hvc1.[A-C]P.FLAGS.[LH]LEVEL.C1.C2…` from an HEVCDecoderConfigurationRecord (ISO/IEC 14496-15 §8.3.3.1 and
    /// Annex E): profile space and profile, the 32 compatibility flags bit-reversed in hex, tier and level, then
    /// the six constraint bytes in hex with trailing zero bytes left out. The bit depth is `bitDepthLumaMinus8 + 8`.
    static func hevc(_ format: String, _ payload: ArraySlice<UInt8>) throws(MediaParseError) -> CodecConfiguration {
        var cursor = ByteCursor(Array(payload))
        _ = try cursor.u8()  // configurationVersion
        let first = try cursor.u8()
        let space = Int(first >> 6), tier = (first >> 5) & 1, profile = Int(first & 0x1F)
        let compatibility = try cursor.u32()
        var constraints: [UInt8] = []
        for _ in 0..<6 { constraints.append(try cursor.u8()) }
        let level = Int(try cursor.u8())
        try cursor.skip(4)  // min_spatial_segmentation, parallelismType, chromaFormat
        let bitDepth = 8 + Int(try cursor.u8() & 0x07)  // bitDepthLumaMinus8
        try cursor.skip(3)  // bitDepthChromaMinus8, avgFrameRate
        let lengthSize = Int(try cursor.u8() & 0x03) + 1
        var reversed: UInt32 = 0
        for bit in 0..<32 where compatibility & (1 << bit) != 0 { reversed |= 1 << (31 - bit) }
        while constraints.last == 0 { constraints.removeLast() }
        var parts = [
            format, (space == 0 ? "" : String(UnicodeScalar(UInt8(64 + space)))) + String(profile),
            String(reversed, radix: 16, uppercase: true), (tier == 1 ? "H" : "L") + String(level),
        ]
        parts += constraints.map { String($0, radix: 16, uppercase: true) }
        return CodecConfiguration(codec: parts.joined(separator: "."), nalLengthSize: lengthSize, bitDepth: bitDepth)
    }

    /// `av01.P.LLT.DD` from an AV1CodecConfigurationRecord (AV1-ISOBMFF §2.3 and its Codecs Parameter String
    /// section): profile, level index with tier M/H, and bit depth (`high_bitdepth`, `twelve_bit`). The optional
    /// colour fields are left out.
    static func av1(_ payload: ArraySlice<UInt8>) throws(MediaParseError) -> CodecConfiguration {
        var cursor = ByteCursor(Array(payload))
        _ = try cursor.u8()  // marker and version
        let second = try cursor.u8(), third = try cursor.u8()
        _ = try cursor.u8()  // initial_presentation_delay
        let profile = Int(second >> 5), level = Int(second & 0x1F)
        let tier = third >> 7 == 1 ? "H" : "M"
        let highBitDepth = (third >> 6) & 1 == 1, twelveBit = (third >> 5) & 1 == 1
        let depth = profile == 2 && highBitDepth ? (twelveBit ? 12 : 10) : (highBitDepth ? 10 : 8)
        var reducedStill = false
        // configOBUs: a sequence header OBU, when present, says whether frame headers are reduced.
        if cursor.remaining > 0,
            let header = try? AV1.firstOBU(ofType: AV1.sequenceHeader, in: Array(cursor.take(cursor.remaining)))
        {
            reducedStill = header.payload.first.map { ($0 >> 3) & 1 == 1 } ?? false
        }
        let codec = "av01.\(profile).\(String(level).leftPadded(to: 2))\(tier).\(String(depth).leftPadded(to: 2))"
        return CodecConfiguration(codec: codec, av1ReducedStillPicture: reducedStill, bitDepth: depth)
    }

    /// `mp4a.40.N` from an ES descriptor (ISO/IEC 14496-1 §7.2.6.5): MPEG-4 audio (object type 0x40) names the
    /// AudioSpecificConfig's audio object type; other object types are the type in hex (`mp4a.6B`).
    static func mp4a(_ payload: ArraySlice<UInt8>) throws(MediaParseError) -> CodecConfiguration {
        var cursor = ByteCursor(Array(payload))
        try cursor.skip(4)  // version and flags
        guard try descriptor(&cursor) == 0x03 else {
            throw MediaParseError("esds does not start with an ES_Descriptor")
        }
        try cursor.skip(2)  // ES_ID
        let flags = try cursor.u8()
        if flags & 0x80 != 0 { try cursor.skip(2) }
        if flags & 0x40 != 0 { try cursor.skip(Int(try cursor.u8())) }
        if flags & 0x20 != 0 { try cursor.skip(2) }
        guard try descriptor(&cursor) == 0x04 else { throw MediaParseError("esds has no DecoderConfigDescriptor") }
        let objectType = try cursor.u8()
        try cursor.skip(12)  // streamType, bufferSizeDB, maxBitrate, avgBitrate
        guard objectType == 0x40 else {
            return CodecConfiguration(codec: "mp4a." + String(objectType, radix: 16, uppercase: true).leftPadded(to: 2))
        }
        guard cursor.remaining > 0, try descriptor(&cursor) == 0x05 else { return CodecConfiguration(codec: "mp4a.40") }
        let first = try cursor.u8()
        var audioObjectType = Int(first >> 3)
        if audioObjectType == 31 {
            let second = try cursor.u8()
            audioObjectType = 32 + Int(first & 0x07) << 3 + Int(second >> 5)
        }
        return CodecConfiguration(codec: "mp4a.40.\(audioObjectType)")
    }

    /// Reads a descriptor tag and its expandable length (up to four 7-bit groups); returns the tag.
    private static func descriptor(_ cursor: inout ByteCursor) throws(MediaParseError) -> UInt8 {
        let tag = try cursor.u8()
        for _ in 0..<4 {
            if try cursor.u8() & 0x80 == 0 { break }
        }
        return tag
    }
}
