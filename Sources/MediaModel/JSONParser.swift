/// A strict RFC 8259 parser from bytes straight to `JSONValue`.
///
/// It replaced decoding `JSONValue` through Foundation's `JSONDecoder`, which tried each type in turn and built a
/// coding path and an error for every miss: that took 60 % of the server's CPU while events arrived
/// (docs/quirks.md). Being strict also closes gaps Foundation left open: a trailing comma, a key given twice and a
/// lone surrogate are errors that say where they are, not values some other parser would read differently.
///
/// Numbers: a literal that is exactly a whole number within `Int64` is `.integer` (`3`, `1e2`, `-0.0`, `1.50e1`),
/// as Foundation read the common cases; any other finite value is `.number`, and one past a Double's range is an error.
struct JSONParser {
    /// Foundation's limit, so a preset or batch that nested legally before still does.
    static let maximumDepth = 512

    private let bytes: [UInt8]
    private var index = 0
    private var depth = 0

    init(_ bytes: [UInt8]) {
        self.bytes = bytes
    }

    /// The one value the document holds, with only whitespace around it (and an optional UTF-8 byte-order mark).
    mutating func document() throws(JSONSyntaxError) -> JSONValue {
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { index = 3 }
        skipWhitespace()
        let value = try self.value()
        skipWhitespace()
        guard index == bytes.count else { throw failure(.unexpected(found: bytes[index], expected: "the end")) }
        return value
    }

    /// The members of each object, in order, when the document is a list of flat objects: objects whose values are all
    /// strings, numbers, booleans or null, each key once. Nil for anything else, a syntax error included, which
    /// `document()` then names. A viewer-event batch is such a list, and a dictionary per event (its allocation and the
    /// hashing of every key, twice) was a third of the time its checks took.
    mutating func flatObjects() -> [[JSONMember]]? {
        do throws(JSONSyntaxError) {
            if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { index = 3 }
            skipWhitespace()
            guard next(is: "[") else { return nil }
            var objects: [[JSONMember]] = []
            skipWhitespace()
            if !next(is: "]") {
                while true {
                    skipWhitespace()
                    guard let members = try flatObject() else { return nil }
                    objects.append(members)
                    skipWhitespace()
                    if next(is: ",") { continue }
                    guard next(is: "]") else { return nil }
                    break
                }
            }
            skipWhitespace()
            return index == bytes.count ? objects : nil
        } catch {
            return nil
        }
    }

    private mutating func flatObject() throws(JSONSyntaxError) -> [JSONMember]? {
        guard next(is: "{") else { return nil }
        var members: [JSONMember] = []
        members.reserveCapacity(8)
        skipWhitespace()
        if next(is: "}") { return members }
        while true {
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { return nil }
            let key = try string()
            guard !members.contains(where: { $0.key == key }) else { return nil }
            skipWhitespace()
            guard next(is: ":") else { return nil }
            skipWhitespace()
            guard index < bytes.count, bytes[index] != UInt8(ascii: "{"), bytes[index] != UInt8(ascii: "[") else {
                return nil
            }
            members.append(JSONMember(key: key, value: try value()))
            skipWhitespace()
            if next(is: ",") { continue }
            return next(is: "}") ? members : nil
        }
    }

    /// Steps over `byte` when it comes next.
    private mutating func next(is byte: Unicode.Scalar) -> Bool {
        guard index < bytes.count, bytes[index] == UInt8(ascii: byte) else { return false }
        index += 1
        return true
    }

    private mutating func value() throws(JSONSyntaxError) -> JSONValue {
        guard index < bytes.count else { throw failure(.endOfInput(expected: "a value")) }
        switch bytes[index] {
        case UInt8(ascii: "{"): return try object()
        case UInt8(ascii: "["): return try array()
        case UInt8(ascii: "\""): return .string(try string())
        case UInt8(ascii: "t"):
            try literal("true")
            return .bool(true)
        case UInt8(ascii: "f"):
            try literal("false")
            return .bool(false)
        case UInt8(ascii: "n"):
            try literal("null")
            return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try number()
        case let byte: throw failure(.unexpected(found: byte, expected: "a value"))
        }
    }

    private mutating func object() throws(JSONSyntaxError) -> JSONValue {
        try enter()
        index += 1
        // Room for a viewer event's fields from the start: growing 1, 2, 4, 8 rehashed each object three times.
        var object: [String: JSONValue] = Dictionary(minimumCapacity: 8)
        skipWhitespace()
        if try peek(expected: "a key or '}'") == UInt8(ascii: "}") {
            index += 1
            depth -= 1
            return .object(object)
        }
        while true {
            skipWhitespace()
            let keyStart = index
            guard try peek(expected: "a key") == UInt8(ascii: "\"") else {
                throw failure(.unexpected(found: bytes[index], expected: "a key in double quotes"))
            }
            let key = try string()
            skipWhitespace()
            try expect(UInt8(ascii: ":"), "':' after a key")
            skipWhitespace()
            let value = try self.value()
            guard object.updateValue(value, forKey: key) == nil else {
                throw failure(.duplicateKey(key), at: keyStart)
            }
            skipWhitespace()
            switch try peek(expected: "',' or '}' after a value in an object") {
            case UInt8(ascii: ","): index += 1
            case UInt8(ascii: "}"):
                index += 1
                depth -= 1
                return .object(object)
            case let byte: throw failure(.unexpected(found: byte, expected: "',' or '}' after a value in an object"))
            }
        }
    }

    private mutating func array() throws(JSONSyntaxError) -> JSONValue {
        try enter()
        index += 1
        var items: [JSONValue] = []
        skipWhitespace()
        if try peek(expected: "a value or ']'") == UInt8(ascii: "]") {
            index += 1
            depth -= 1
            return .array(items)
        }
        while true {
            skipWhitespace()
            items.append(try value())
            skipWhitespace()
            switch try peek(expected: "',' or ']' after a value in a list") {
            case UInt8(ascii: ","): index += 1
            case UInt8(ascii: "]"):
                index += 1
                depth -= 1
                return .array(items)
            case let byte: throw failure(.unexpected(found: byte, expected: "',' or ']' after a value in a list"))
            }
        }
    }

    private mutating func enter() throws(JSONSyntaxError) {
        depth += 1
        guard depth <= Self.maximumDepth else { throw failure(.tooDeep(limit: Self.maximumDepth)) }
    }

    /// A string from its opening quote; escapes decoded, the result checked to be UTF-8.
    private mutating func string() throws(JSONSyntaxError) -> String {
        index += 1
        let start = index
        // Most strings have no escape: their bytes are the string's. Most are ASCII too, which needs no validation:
        // String's validating initialiser looked up generic metadata for every string (docs/quirks.md).
        var high: UInt8 = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                let end = index
                let text =
                    high < 0x80
                    ? bytes.withUnsafeBufferPointer {
                        String(decoding: UnsafeBufferPointer(rebasing: $0[start..<end]), as: UTF8.self)
                    }
                    : try utf8(bytes[start..<index], at: start)
                index += 1
                return text
            }
            high |= byte
            if byte == UInt8(ascii: "\\") { break }
            guard byte >= 0x20 else { throw failure(.controlCharacterInString) }
            index += 1
        }
        var decoded = Array(bytes[start..<index])
        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "\""):
                let text = try utf8(decoded[...], at: start)
                index += 1
                return text
            case UInt8(ascii: "\\"):
                try escape(into: &decoded)
            case ..<0x20:
                throw failure(.controlCharacterInString)
            default:
                decoded.append(byte)
                index += 1
            }
        }
        throw failure(.endOfInput(expected: "the string's closing '\"'"))
    }

    private func utf8(_ slice: ArraySlice<UInt8>, at start: Int) throws(JSONSyntaxError) -> String {
        // Through the buffer: from the slice itself, String's generic path looked up type metadata for every string.
        guard let text = slice.withUnsafeBufferPointer({ String(validating: $0, as: UTF8.self) }) else {
            throw failure(.invalidUTF8, at: start)
        }
        return text
    }

    /// One escape, from its backslash, appended to `decoded` as UTF-8.
    private mutating func escape(into decoded: inout [UInt8]) throws(JSONSyntaxError) {
        let start = index
        index += 1
        guard index < bytes.count else { throw failure(.endOfInput(expected: "an escaped character")) }
        let byte = bytes[index]
        index += 1
        switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): decoded.append(byte)
        case UInt8(ascii: "b"): decoded.append(0x08)
        case UInt8(ascii: "f"): decoded.append(0x0C)
        case UInt8(ascii: "n"): decoded.append(0x0A)
        case UInt8(ascii: "r"): decoded.append(0x0D)
        case UInt8(ascii: "t"): decoded.append(0x09)
        case UInt8(ascii: "u"):
            var scalar = try hex4(escapeAt: start)
            if (0xD800...0xDBFF).contains(scalar) {
                guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u")
                else { throw failure(.badUnicodeEscape, at: start) }
                index += 2
                let low = try hex4(escapeAt: start)
                guard (0xDC00...0xDFFF).contains(low) else { throw failure(.badUnicodeEscape, at: start) }
                scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
            }
            guard let unicode = Unicode.Scalar(scalar) else { throw failure(.badUnicodeEscape, at: start) }
            decoded.append(contentsOf: unicode.utf8)
        default:
            throw failure(.badEscape, at: start)
        }
    }

    private mutating func hex4(escapeAt start: Int) throws(JSONSyntaxError) -> UInt32 {
        guard index + 4 <= bytes.count else { throw failure(.badUnicodeEscape, at: start) }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[index]
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: throw failure(.badUnicodeEscape, at: start)
            }
            value = value << 4 | UInt32(digit)
            index += 1
        }
        return value
    }

    /// `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`
    private mutating func number() throws(JSONSyntaxError) -> JSONValue {
        let start = index
        let negative = bytes[index] == UInt8(ascii: "-")
        if negative { index += 1 }
        // The common case, a plain integer, is accumulated as it is read: towards the sign, so Int64.min fits; nil
        // once it no longer does.
        var whole: Int64? = 0
        let wholeDigits = index
        while index < bytes.count, let digit = Self.digit(bytes[index]) {
            if let value = whole {
                let (shifted, over) = value.multipliedReportingOverflow(by: 10)
                let (next, overAgain) = shifted.addingReportingOverflow(negative ? -digit : digit)
                whole = over || overAgain ? nil : next
            }
            index += 1
        }
        guard index > wholeDigits else {
            guard index < bytes.count else { throw failure(.endOfInput(expected: "a digit")) }
            throw failure(.unexpected(found: bytes[index], expected: "a digit"))
        }
        if index - wholeDigits > 1, bytes[wholeDigits] == UInt8(ascii: "0") {
            throw failure(
                .unexpected(found: bytes[wholeDigits + 1], expected: "'.', 'e' or the number's end after a leading 0"),
                at: wholeDigits + 1)
        }
        var literal = Digits(whole: wholeDigits..<index)
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            literal.fraction = try self.digits(after: "'.'")
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            index += 1
            var sign = 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") {
                if bytes[index] == UInt8(ascii: "-") { sign = -1 }
                index += 1
            }
            // Clamped: any exponent past a few hundred already decides the value.
            literal.exponent =
                sign * bytes[try self.digits(after: "an exponent")].reduce(0) { min($0 * 10 + Int($1 - 48), 100_000) }
        }
        if literal.isPlainInteger, let whole { return .integer(whole) }
        if let exact = literal.exactInteger(in: bytes, negative: negative) { return .integer(exact) }
        return .number(try double(from: start))
    }

    /// A number's digits as positions in the bytes: `whole.fraction × 10^exponent`.
    private struct Digits {
        let whole: Range<Int>
        var fraction: Range<Int> = 0..<0
        var exponent = 0

        var isPlainInteger: Bool { fraction.isEmpty && exponent == 0 }

        /// The value when it is exactly a whole number within Int64, worked out in decimal: `1.50e1` is 15, while
        /// `0.5e1` rounded through a Double is not how `12345678901234567.0` should be read.
        func exactInteger(in bytes: [UInt8], negative: Bool) -> Int64? {
            let count = whole.count + fraction.count
            func digit(_ at: Int) -> Int64 {
                Int64(bytes[at < whole.count ? whole.lowerBound + at : fraction.lowerBound + at - whole.count] - 48)
            }
            var end = count
            while end > 0, digit(end - 1) == 0 { end -= 1 }
            guard end > 0 else { return 0 }
            var first = 0
            while digit(first) == 0 { first += 1 }
            // Each trailing zero dropped moves the decimal point one place.
            let scale = exponent - fraction.count + (count - end)
            guard scale >= 0, end - first + scale <= 19 else { return nil }
            var value: Int64 = 0
            for at in first..<end {
                let (shifted, over) = value.multipliedReportingOverflow(by: 10)
                let (next, overAgain) = shifted.addingReportingOverflow(negative ? -digit(at) : digit(at))
                guard !over, !overAgain else { return nil }
                value = next
            }
            for _ in 0..<scale {
                let (shifted, over) = value.multipliedReportingOverflow(by: 10)
                guard !over else { return nil }
                value = shifted
            }
            return value
        }
    }

    private func double(from start: Int) throws(JSONSyntaxError) -> Double {
        let text = String(decoding: bytes[start..<index], as: UTF8.self)
        guard let value = Double(text), value.isFinite else { throw failure(.numberOutOfRange, at: start) }
        return value
    }

    /// The run of digits that must come next.
    private mutating func digits(after what: String) throws(JSONSyntaxError) -> Range<Int> {
        let first = index
        while index < bytes.count, Self.digit(bytes[index]) != nil { index += 1 }
        guard index > first else {
            guard index < bytes.count else { throw failure(.endOfInput(expected: "a digit after \(what)")) }
            throw failure(.unexpected(found: bytes[index], expected: "a digit after \(what)"))
        }
        return first..<index
    }

    private static func digit(_ byte: UInt8) -> Int64? {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) ? Int64(byte - UInt8(ascii: "0")) : nil
    }

    private mutating func literal(_ word: String) throws(JSONSyntaxError) {
        for byte in word.utf8 {
            guard index < bytes.count else { throw failure(.endOfInput(expected: "'\(word)'")) }
            guard bytes[index] == byte else { throw failure(.unexpected(found: bytes[index], expected: "'\(word)'")) }
            index += 1
        }
    }

    private mutating func expect(_ byte: UInt8, _ what: String) throws(JSONSyntaxError) {
        guard try peek(expected: what) == byte else { throw failure(.unexpected(found: bytes[index], expected: what)) }
        index += 1
    }

    private func peek(expected: String) throws(JSONSyntaxError) -> UInt8 {
        guard index < bytes.count else { throw failure(.endOfInput(expected: expected)) }
        return bytes[index]
    }

    private mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x0A, 0x0D, 0x09: index += 1
            default: return
            }
        }
    }

    private func failure(_ reason: JSONSyntaxError.Reason, at offset: Int? = nil) -> JSONSyntaxError {
        JSONSyntaxError(reason, at: offset ?? index, in: bytes)
    }
}
