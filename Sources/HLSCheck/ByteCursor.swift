/// Big-endian reads over bytes that came from an untrusted file: every read is bounds-checked and a short buffer
/// throws `MediaParseError` instead of trapping.
struct ByteCursor {
    let bytes: [UInt8]
    private(set) var position: Int
    let end: Int

    init(_ bytes: [UInt8], from start: Int = 0, to end: Int? = nil) {
        self.bytes = bytes
        position = start
        self.end = min(end ?? bytes.count, bytes.count)
    }

    var remaining: Int { max(0, end - position) }

    mutating func u8() throws(MediaParseError) -> UInt8 {
        guard position < end else { throw MediaParseError("truncated at byte \(position)") }
        defer { position += 1 }
        return bytes[position]
    }

    mutating func u16() throws(MediaParseError) -> UInt16 { UInt16(try unsigned(2)) }
    mutating func u24() throws(MediaParseError) -> UInt32 { UInt32(try unsigned(3)) }
    mutating func u32() throws(MediaParseError) -> UInt32 { UInt32(try unsigned(4)) }
    mutating func u64() throws(MediaParseError) -> UInt64 { try unsigned(8) }
    mutating func i32() throws(MediaParseError) -> Int32 { Int32(bitPattern: try u32()) }

    mutating func fourCC() throws(MediaParseError) -> String {
        guard remaining >= 4 else { throw MediaParseError("truncated at byte \(position)") }
        defer { position += 4 }
        return Self.fourCC(bytes[position..<position + 4])
    }

    mutating func skip(_ count: Int) throws(MediaParseError) {
        guard count >= 0, remaining >= count else { throw MediaParseError("truncated at byte \(position)") }
        position += count
    }

    mutating func take(_ count: Int) throws(MediaParseError) -> ArraySlice<UInt8> {
        guard count >= 0, remaining >= count else { throw MediaParseError("truncated at byte \(position)") }
        defer { position += count }
        return bytes[position..<position + count]
    }

    private mutating func unsigned(_ count: Int) throws(MediaParseError) -> UInt64 {
        guard remaining >= count else { throw MediaParseError("truncated at byte \(position)") }
        var value: UInt64 = 0
        for index in position..<position + count { value = value << 8 | UInt64(bytes[index]) }
        position += count
        return value
    }

    /// Printable four-character codes as they are; anything else in hex, so a finding never prints control bytes.
    static func fourCC(_ bytes: ArraySlice<UInt8>) -> String {
        if bytes.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) { return String(decoding: bytes, as: UTF8.self) }
        return "0x" + bytes.map { String($0, radix: 16).leftPadded(to: 2) }.joined()
    }
}

/// Why bytes could not be read as the media format they claim to be.
package struct MediaParseError: Error, Sendable, CustomStringConvertible {
    package let message: String
    init(_ message: String) { self.message = message }
    package var description: String { message }
}

extension String {
    func leftPadded(to width: Int, with pad: Character = "0") -> String {
        count >= width ? self : String(repeating: pad, count: width - count) + self
    }
}
