/// Reads an H.264 RBSP bit by bit, most significant bit first (ITU-T H.264 §7.2): fixed-width fields and
/// Exp-Golomb codes. Every read is bounds-checked; running out of bits throws `MediaParseError`.
struct BitReader {
    private let bytes: [UInt8]
    private var position = 0

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    var bitsLeft: Int { bytes.count * 8 - position }

    mutating func bit() throws(MediaParseError) -> UInt32 {
        guard position < bytes.count * 8 else { throw MediaParseError("the parameter set ends at bit \(position)") }
        defer { position += 1 }
        return UInt32(bytes[position >> 3] >> (7 - UInt8(position & 7)) & 1)
    }

    mutating func flag() throws(MediaParseError) -> Bool { try bit() == 1 }

    /// `u(n)` for n up to 32.
    mutating func bits(_ count: Int) throws(MediaParseError) -> UInt32 {
        precondition((0...32).contains(count), "u(n) reads at most 32 bits")
        var value: UInt64 = 0
        for _ in 0..<count { value = value << 1 | UInt64(try bit()) }
        return UInt32(value)
    }

    /// `ue(v)`: an unsigned Exp-Golomb code. More than 31 leading zeros is not a value H.264 can hold.
    mutating func unsignedGolomb() throws(MediaParseError) -> UInt32 {
        var zeros = 0
        while try bit() == 0 {
            zeros += 1
            guard zeros <= 31 else { throw MediaParseError("an Exp-Golomb code with more than 31 leading zeros") }
        }
        return UInt32((UInt64(1) << zeros) - 1 + UInt64(try bits(zeros)))
    }

    /// `se(v)`: a signed Exp-Golomb code (H.264 Table 9-3).
    mutating func signedGolomb() throws(MediaParseError) -> Int64 {
        let code = Int64(try unsignedGolomb())
        return code % 2 == 1 ? (code + 1) / 2 : -(code / 2)
    }

    /// The RBSP of a NAL unit's payload: every emulation prevention byte (0x03 after two zero bytes) removed.
    static func rbsp(_ payload: ArraySlice<UInt8>) -> [UInt8] {
        var result: [UInt8] = []
        result.reserveCapacity(payload.count)
        var zeros = 0
        for byte in payload {
            if zeros >= 2, byte == 0x03 {
                zeros = 0
                continue
            }
            zeros = byte == 0 ? zeros + 1 : 0
            result.append(byte)
        }
        return result
    }
}
