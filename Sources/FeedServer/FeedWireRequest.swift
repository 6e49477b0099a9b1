internal import NIOCore

/// A `GET /v1/feed` request in the plainest form HTTP/1.1 has, read from the bytes of one socket read, for
/// `FeedWireHandler` to answer without the HTTP decoder.
///
/// Parsing fails — and the bytes go to the decoder unchanged — for anything the decoder could read another way or
/// that changes the answer: bytes before or after the one head (a partial or pipelined request), another method or
/// version, a target byte outside the unreserved set plus `/?=&` (no percent-escapes), a header name other than the
/// few below or one given twice, a folded line, a bare CR or LF, a control or non-ASCII byte in a value, and so
/// framing (`Content-Length`, `Transfer-Encoding`), `Expect`, `Origin`, `Upgrade` and every `Connection` but
/// keep-alive.
struct FeedWireRequest: Equatable {
    /// The request target, e.g. `/v1/feed?limit=20`.
    let target: String
    let acceptEncoding: String?
    let ifNoneMatch: String?

    /// Far below the decoder's limits, so the decoder would never refuse what this accepts for its size.
    static let maximumLength = 2048
    static let maximumFields = 16

    init?(_ buffer: ByteBuffer) {
        guard let request = buffer.withUnsafeReadableBytes({ Self.parse($0) }) else { return nil }
        self = request
    }

    init(target: String, acceptEncoding: String?, ifNoneMatch: String?) {
        self.target = target
        self.acceptEncoding = acceptEncoding
        self.ifNoneMatch = ifNoneMatch
    }

    /// The header fields this path reads or may safely ignore (their values change nothing in a feed answer).
    private enum Field: CaseIterable {
        case host, userAgent, accept, acceptLanguage, acceptEncoding, ifNoneMatch, connection

        var name: StaticString {
            switch self {
            case .host: "host"
            case .userAgent: "user-agent"
            case .accept: "accept"
            case .acceptLanguage: "accept-language"
            case .acceptEncoding: "accept-encoding"
            case .ifNoneMatch: "if-none-match"
            case .connection: "connection"
            }
        }

        var bit: Int {
            switch self {
            case .host: 1
            case .userAgent: 2
            case .accept: 4
            case .acceptLanguage: 8
            case .acceptEncoding: 16
            case .ifNoneMatch: 32
            case .connection: 64
            }
        }

        /// The field named by `name` (letters, digits and `-` only), ignoring ASCII case.
        static func named(_ name: UnsafeRawBufferPointer.SubSequence) -> Field? {
            for field in allCases {
                let expected = field.name
                guard expected.utf8CodeUnitCount == name.count else { continue }
                let matches = expected.withUTF8Buffer { known in
                    zip(known, name).allSatisfy { $0 == $1 | 0x20 }
                }
                if matches { return field }
            }
            return nil
        }
    }

    private static let cr = UInt8(ascii: "\r")
    private static let lf = UInt8(ascii: "\n")
    private static let space = UInt8(ascii: " ")
    private static let tab = UInt8(ascii: "\t")

    private static func parse(_ bytes: UnsafeRawBufferPointer) -> FeedWireRequest? {
        let count = bytes.count
        guard count <= maximumLength, count >= 16 else { return nil }
        // The head ends exactly where the read does: nothing missing, nothing behind it.
        guard bytes[count - 4] == cr, bytes[count - 3] == lf, bytes[count - 2] == cr, bytes[count - 1] == lf
        else { return nil }
        guard starts(bytes, at: 0, with: "GET /v1/feed") else { return nil }
        var index = 4
        while index < count, bytes[index] != space {
            guard isTargetByte(bytes[index]) else { return nil }
            index += 1
        }
        let target = String(decoding: bytes[4..<index], as: UTF8.self)
        guard starts(bytes, at: index, with: " HTTP/1.1\r\n") else { return nil }
        index += 11
        var seen = 0
        var fields = 0
        var acceptEncoding: String?
        var ifNoneMatch: String?
        while index < count, bytes[index] != cr {
            fields += 1
            guard fields <= maximumFields else { return nil }
            let nameStart = index
            while index < count, isNameByte(bytes[index]) { index += 1 }
            guard index < count, bytes[index] == UInt8(ascii: ":"), index > nameStart,
                let field = Field.named(bytes[nameStart..<index]), seen & field.bit == 0
            else { return nil }
            seen |= field.bit
            index += 1
            while index < count, bytes[index] == space || bytes[index] == tab { index += 1 }
            let valueStart = index
            while index < count, isValueByte(bytes[index]) { index += 1 }
            guard index + 1 < count, bytes[index] == cr, bytes[index + 1] == lf else { return nil }
            var valueEnd = index
            while valueEnd > valueStart, bytes[valueEnd - 1] == space || bytes[valueEnd - 1] == tab { valueEnd -= 1 }
            index += 2
            let value = bytes[valueStart..<valueEnd]
            switch field {
            case .acceptEncoding: acceptEncoding = String(decoding: value, as: UTF8.self)
            case .ifNoneMatch: ifNoneMatch = String(decoding: value, as: UTF8.self)
            case .connection:
                guard value.count == 10, zip("keep-alive".utf8, value).allSatisfy({ $0 == $1 | 0x20 }) else {
                    return nil
                }
            case .host, .userAgent, .accept, .acceptLanguage: break
            }
        }
        // The blank line is the last two bytes (checked above), and one Host, as HTTP/1.1 asks.
        guard index + 2 == count, seen & Field.host.bit != 0 else { return nil }
        return FeedWireRequest(target: target, acceptEncoding: acceptEncoding, ifNoneMatch: ifNoneMatch)
    }

    private static func starts(_ bytes: UnsafeRawBufferPointer, at index: Int, with prefix: StaticString) -> Bool {
        guard bytes.count - index >= prefix.utf8CodeUnitCount else { return false }
        return prefix.withUTF8Buffer { expected in
            expected.indices.allSatisfy { bytes[index + $0] == expected[$0] }
        }
    }

    /// Unreserved characters (RFC 3986) and the separators of a path and query; no `%`, `+`, `#` or `;`.
    private static func isTargetByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"):
            true
        case UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "."), UInt8(ascii: "~"), UInt8(ascii: "/"),
            UInt8(ascii: "?"), UInt8(ascii: "="), UInt8(ascii: "&"):
            true
        default: false
        }
    }

    /// Letters, digits and `-`: every name this path takes, so `| 0x20` lowercases them.
    private static func isNameByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"):
            true
        default: false
        }
    }

    /// Visible ASCII, space and tab: no CR or LF of its own, no control or non-ASCII byte.
    private static func isValueByte(_ byte: UInt8) -> Bool {
        (0x20...0x7E).contains(byte) || byte == tab
    }
}
