/// Where and why a document is not JSON (RFC 8259): the line, column and byte offset of the first byte that is wrong.
public struct JSONSyntaxError: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Reason: Sendable, Equatable {
        /// The document ended where `expected` should have come.
        case endOfInput(expected: String)
        /// `found` (a byte) is where `expected` should be.
        case unexpected(found: UInt8, expected: String)
        /// A string holds a raw control character (below U+0020), which must be escaped.
        case controlCharacterInString
        /// A backslash is followed by something other than `" \ / b f n r t u`.
        case badEscape
        /// `\u` is not followed by four hex digits, or a surrogate is not half of a pair.
        case badUnicodeEscape
        /// A string's bytes are not UTF-8.
        case invalidUTF8
        /// A number's value is beyond what a Double holds.
        case numberOutOfRange
        /// Arrays and objects nest deeper than `limit`.
        case tooDeep(limit: Int)
        /// An object names the same key twice: which value is meant is not clear.
        case duplicateKey(String)
    }

    public let reason: Reason
    /// Counted from 0.
    public let offset: Int
    /// Counted from 1.
    public let line: Int
    /// Counted from 1, in bytes.
    public let column: Int

    init(_ reason: Reason, at offset: Int, in bytes: [UInt8]) {
        self.reason = reason
        self.offset = offset
        var line = 1
        var lineStart = 0
        for index in 0..<min(offset, bytes.count) where bytes[index] == UInt8(ascii: "\n") {
            line += 1
            lineStart = index + 1
        }
        self.line = line
        self.column = offset - lineStart + 1
    }

    public var description: String {
        "line \(line), column \(column) (byte \(offset)): \(reason.text)"
    }
}

extension JSONSyntaxError.Reason {
    var text: String {
        switch self {
        case let .endOfInput(expected): "the document ends where \(expected) should be"
        case let .unexpected(found, expected): "found \(Self.quote(found)) where \(expected) should be"
        case .controlCharacterInString: "a string holds a control character, which JSON requires to be escaped"
        case .badEscape: "a backslash must be followed by one of \" \\ / b f n r t u"
        case .badUnicodeEscape: "\\u must be followed by four hex digits, and surrogates must come in pairs"
        case .invalidUTF8: "a string is not valid UTF-8"
        case .numberOutOfRange: "the number is too large for a 64-bit float"
        case let .tooDeep(limit): "arrays and objects nest deeper than \(limit) levels"
        case let .duplicateKey(key): "the key \"\(key.prefix(64))\" appears twice in one object"
        }
    }

    private static func quote(_ byte: UInt8) -> String {
        (0x21...0x7E).contains(byte) ? "'\(Character(Unicode.Scalar(byte)))'" : "byte 0x\(String(byte, radix: 16))"
    }
}
