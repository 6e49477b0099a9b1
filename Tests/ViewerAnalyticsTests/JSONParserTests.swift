import Foundation
import MediaModel
import TestTraits
import Testing

/// `JSONValue(parsing:)` against Foundation's `JSONDecoder`, which it replaced: the same value for every document
/// both read, and where they differ, only the stricter cases this parser means to refuse.
@Suite(.offThePool, .timeLimit(.minutes(5))) struct JSONParserTests {
    /// The old way, kept here as the oracle: Foundation decodes each value as the first type that fits.
    struct Foundational: Decodable {
        let value: JSONValue
        init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            if container.decodeNil() {
                value = .null
            } else if let flag = try? container.decode(Bool.self) {
                value = .bool(flag)
            } else if let whole = try? container.decode(Int64.self) {
                value = .integer(whole)
            } else if let number = try? container.decode(Double.self) {
                value = .number(number)
            } else if let text = try? container.decode(String.self) {
                value = .string(text)
            } else if let items = try? container.decode([Foundational].self) {
                value = .array(items.map(\.value))
            } else {
                value = .object(try container.decode([String: Foundational].self).mapValues(\.value))
            }
        }
    }

    static func oracle(_ bytes: [UInt8]) -> JSONValue? {
        try? JSONDecoder().decode(Foundational.self, from: Data(bytes)).value
    }

    /// The same tree, with numbers compared as Doubles: Foundation reads some whole literals past 2^53 as Doubles,
    /// or rounds them, where this parser keeps the exact integer (`valuesAreReadExactly` pins those down).
    static func agree(_ mine: JSONValue?, _ theirs: JSONValue?) -> Bool {
        switch (mine, theirs) {
        case (nil, nil): return true
        case let (.array(left)?, .array(right)?):
            return left.count == right.count && zip(left, right).allSatisfy { agree($0, $1) }
        case let (.object(left)?, .object(right)?):
            return left.count == right.count && left.allSatisfy { key, value in agree(value, right[key]) }
        case let (left?, right?):
            if let a = number(left), let b = number(right) { return a == b }
            return left == right
        default: return false
        }
    }

    static func number(_ value: JSONValue) -> Double? {
        switch value {
        case let .integer(whole): Double(whole)
        case let .number(fraction): fraction
        default: nil
        }
    }

    /// The cases this parser refuses on purpose where Foundation reads something.
    static func isDeliberatelyStricter(_ error: JSONSyntaxError, in bytes: [UInt8]) -> Bool {
        switch error.reason {
        case .duplicateKey: return true
        case let .unexpected(found, _) where found == UInt8(ascii: "]") || found == UInt8(ascii: "}"):
            // A trailing comma: the byte before the bracket, past whitespace, is ','.
            let before = bytes[..<error.offset].last { ![0x20, 0x0A, 0x0D, 0x09].contains($0) }
            return before == UInt8(ascii: ",")
        default: return false
        }
    }

    /// Every document of up to two bytes, and of three over the bytes JSON's grammar turns on: both parsers accept
    /// exactly the same ones, with the same value.
    @Test func shortDocumentsAgreeWithFoundationExactly() {
        var documents: [[UInt8]] = [[]]
        for first in UInt8.min...UInt8.max {
            documents.append([first])
            for second in UInt8.min...UInt8.max { documents.append([first, second]) }
        }
        let grammar = Array(#"{}[]":,0-1.eE+ \"u\tnx"#.utf8) + [0x00, 0x1F, 0x7F, 0xC3, 0xA9, 0xFF]
        for a in grammar { for b in grammar { for c in grammar { documents.append([a, b, c]) } } }
        var disagreements: [String] = []
        for bytes in documents {
            let mine = try? JSONValue(parsing: bytes)
            let oracle = Self.oracle(bytes)
            // Foundation also reads UTF-16 and UTF-32, which it tells by zero bytes; JSON between systems is UTF-8
            // (RFC 8259 section 8.1), and a zero byte outside a string is never JSON here.
            if mine == nil, oracle != nil, bytes.contains(0) { continue }
            if !Self.agree(mine, oracle) { disagreements.append("\(bytes): \(String(describing: mine))") }
        }
        #expect(disagreements.isEmpty, "\(disagreements.prefix(10))")
    }

    /// Random documents, written with random spacing, escapes and number forms, read the same by both.
    @Test func randomDocumentsReadAsFoundationReadsThem() throws {
        var random = EngagingOrderTests.Generator(state: 2026)
        for round in 0..<3000 {
            var text = ""
            Self.write(depth: 0, into: &text, random: &random)
            let bytes = Array(text.utf8)
            let mine = try JSONValue(parsing: bytes)
            #expect(Self.agree(mine, Self.oracle(bytes)), "round \(round): \(text)")
        }
    }

    /// Bytes flipped, dropped, doubled and cut from valid documents: the parser never traps, and whatever it accepts
    /// Foundation accepts as the same value; whatever Foundation accepts and it refuses is a deliberate refusal.
    @Test func mutatedDocumentsNeverTrapAndAreNeverReadLooserThanFoundation() {
        var random = EngagingOrderTests.Generator(state: 33)
        var accepted = 0
        var refused = 0
        for round in 0..<20_000 {
            var text = ""
            Self.write(depth: 0, into: &text, random: &random)
            var bytes = Array(text.utf8)
            for _ in 0...random.next(3) where !bytes.isEmpty { Self.mutate(&bytes, &random) }
            let oracle = Self.oracle(bytes)
            do {
                let mine = try JSONValue(parsing: bytes)
                accepted += 1
                #expect(Self.agree(mine, oracle), "round \(round): \(bytes)")
            } catch {
                refused += 1
                if oracle != nil {
                    #expect(Self.isDeliberatelyStricter(error, in: bytes), "round \(round): \(error) for \(bytes)")
                }
                #expect(error.offset >= 0 && error.offset <= bytes.count)
            }
        }
        // Both sides of the property were exercised.
        #expect(accepted > 1000 && refused > 1000, "accepted \(accepted), refused \(refused)")
    }

    @Test(arguments: [
        ("[1,]", JSONSyntaxError.Reason.unexpected(found: UInt8(ascii: "]"), expected: "a value"), 3),
        (#"{"a":1,}"#, .unexpected(found: UInt8(ascii: "}"), expected: "a key in double quotes"), 7),
        (#"{"a":1,"a":2}"#, .duplicateKey("a"), 7),
        (#""\ud800""#, .badUnicodeEscape, 1),
        (#""\udc00\ud800""#, .badUnicodeEscape, 1),
        (#""\ud800\u0041""#, .badUnicodeEscape, 1),
        (#""\x""#, .badEscape, 1),
        ("\"a\u{01}\"", .controlCharacterInString, 2),
        ("\"ab", .endOfInput(expected: "the string's closing '\"'"), 3),
        ("01", .unexpected(found: UInt8(ascii: "1"), expected: "'.', 'e' or the number's end after a leading 0"), 1),
        ("1.", .endOfInput(expected: "a digit after '.'"), 2),
        ("1.e5", .unexpected(found: UInt8(ascii: "e"), expected: "a digit after '.'"), 2),
        ("1e", .endOfInput(expected: "a digit after an exponent"), 2),
        (".5", .unexpected(found: UInt8(ascii: "."), expected: "a value"), 0),
        ("+1", .unexpected(found: UInt8(ascii: "+"), expected: "a value"), 0),
        ("-", .endOfInput(expected: "a digit"), 1),
        ("1e400", .numberOutOfRange, 0),
        ("nul", .endOfInput(expected: "'null'"), 3),
        ("[]x", .unexpected(found: UInt8(ascii: "x"), expected: "the end"), 2),
        (#"{"a" 1}"#, .unexpected(found: UInt8(ascii: "1"), expected: "':' after a key"), 5),
        (#"{1:2}"#, .unexpected(found: UInt8(ascii: "1"), expected: "a key in double quotes"), 1),
        ("[1 2]", .unexpected(found: UInt8(ascii: "2"), expected: "',' or ']' after a value in a list"), 3),
    ])
    func strictRefusalsSayWhereAndWhy(text: String, reason: JSONSyntaxError.Reason, offset: Int) {
        let error = #expect(throws: JSONSyntaxError.self) { try JSONValue(parsing: Array(text.utf8)) }
        #expect(error?.reason == reason)
        #expect(error?.offset == offset)
    }

    @Test func invalidUTF8InAStringIsRefused() {
        for bytes: [UInt8] in [[0x22, 0xFF, 0x22], [0x22, 0xC3, 0x22], [0x22, 0xED, 0xA0, 0x80, 0x22]] {
            let error = #expect(throws: JSONSyntaxError.self) { try JSONValue(parsing: bytes) }
            #expect(error?.reason == .invalidUTF8)
        }
    }

    @Test(arguments: [
        ("1.0", JSONValue.integer(1)), ("1e2", .integer(100)), ("-0.0", .integer(0)), ("0.1e1", .integer(1)),
        ("9223372036854775807", .integer(.max)), ("-9223372036854775808", .integer(.min)),
        ("9223372036854775808", .number(9_223_372_036_854_775_808)), ("1.5", .number(1.5)),
        ("-2.5E-3", .number(-0.0025)),
        (#""\u00e9\ud83d\ude00\/\n""#, .string("é😀/\n")), ("\u{FEFF} true ", .bool(true)),
        (
            #"{"a":[null,false,{}],"b":[]}"#,
            .object(["a": .array([.null, .bool(false), .object([:])]), "b": .array([])])
        ),
    ])
    func valuesReadAsFoundationReadThem(text: String, value: JSONValue) throws {
        #expect(try JSONValue(parsing: Array(text.utf8)) == value)
        #expect(Self.oracle(Array(text.utf8)) == value)
    }

    /// Whole numbers are worked out in decimal, never through a Double.
    @Test(arguments: [
        ("12345678901234567.0", JSONValue.integer(12_345_678_901_234_567)), ("1.50e1", .integer(15)),
        ("922337203685477580.7e1", .integer(.max)), ("-92233720368547758.08e2", .integer(.min)),
        ("100e-2", .integer(1)), ("0.5e1", .integer(5)), ("0.000e99999", .integer(0)), ("-0", .integer(0)),
        ("922337203685477580.8e1", .number(9_223_372_036_854_775_808)), ("1.25e1", .number(12.5)),
        ("2.5e-1000", .number(0)), ("9007199254740993.5", .number(9_007_199_254_740_994)),
        ("1e99999", nil), ("-1e309", nil),
    ])
    func valuesAreReadExactly(text: String, value: JSONValue?) {
        #expect((try? JSONValue(parsing: Array(text.utf8))) == value)
    }

    @Test func nestingStopsAtFoundationsLimitWithoutOverflowingTheStack() throws {
        let limit = 512
        let deepest = String(repeating: "[", count: limit) + String(repeating: "]", count: limit)
        #expect(throws: Never.self) { try JSONValue(parsing: Array(deepest.utf8)) }
        let deeper = String(repeating: #"{"a":["#, count: limit) + String(repeating: "]}", count: limit)
        let error = #expect(throws: JSONSyntaxError.self) { try JSONValue(parsing: Array(deeper.utf8)) }
        #expect(error?.reason == .tooDeep(limit: limit))
        // A hostile body can only ask for more: far past the limit is refused at the same depth.
        let hostile = Array(repeating: UInt8(ascii: "["), count: 60_000)
        #expect((try? JSONValue(parsing: hostile)) == nil)
    }

    @Test func errorsCountLinesAndColumns() {
        let text = "{\n  \"a\": 1,\n  \"a\": 2\n}"
        let error = #expect(throws: JSONSyntaxError.self) { try JSONValue(parsing: Array(text.utf8)) }
        #expect(error?.line == 3)
        #expect(error?.column == 3)
        #expect(error?.description == #"line 3, column 3 (byte 14): the key "a" appears twice in one object"#)
    }

    /// `JSONValue.flatObjects(parsing:)`, the events' shortcut, answers exactly for the documents that parse to a list
    /// of objects with only scalar values, with those objects' members; for any other document, valid or not, nil.
    @Test func flatObjectsAreExactlyTheListsOfFlatObjects() {
        var random = EngagingOrderTests.Generator(state: 58)
        var flat = 0
        var other = 0
        for round in 0..<20_000 {
            var text = ""
            Self.space(&text, &random)
            text += "["
            let keys = [#""type""#, #""session""#, #""video""#, #""ms""#, #""\u0074ype""#, #""é""#, #""""#]
            for item in 0..<random.next(5) {
                if item > 0 { text += "," }
                Self.space(&text, &random)
                if random.next(12) == 0 {
                    Self.write(depth: 3, into: &text, random: &random)  // anything: a number, a list, an object
                    continue
                }
                text += "{"
                for member in 0..<random.next(6) {
                    if member > 0 { text += "," }
                    Self.space(&text, &random)
                    // Sometimes a key twice (spelt the same or escaped), sometimes a nested value.
                    text += random.next(3) == 0 ? Self.string(&random) : keys[random.next(keys.count)]
                    Self.space(&text, &random)
                    text += ":"
                    Self.write(depth: random.next(10) == 0 ? 3 : 4, into: &text, random: &random)
                }
                Self.space(&text, &random)
                text += "}"
            }
            text += "]"
            Self.space(&text, &random)
            var bytes = Array(text.utf8)
            if random.next(2) == 0 { Self.mutate(&bytes, &random) }
            var expected: [[String: JSONValue]]?
            if case let .array(items)? = try? JSONValue(parsing: bytes) {
                expected = []
                for item in items {
                    guard case let .object(members) = item,
                        members.values.allSatisfy({
                            if case .array = $0 { return false }
                            if case .object = $0 { return false }
                            return true
                        })
                    else {
                        expected = nil
                        break
                    }
                    expected?.append(members)
                }
            }
            let found = JSONValue.flatObjects(parsing: bytes)
            if found != nil { flat += 1 } else { other += 1 }
            let asDictionaries = found?.map { members in
                Dictionary(members.map { ($0.key, $0.value) }, uniquingKeysWith: { first, _ in first })
            }
            #expect(asDictionaries == expected, "round \(round): \(String(decoding: bytes, as: UTF8.self))")
            // Each key once.
            #expect(found?.allSatisfy { Set($0.map(\.key)).count == $0.count } ?? true, "round \(round)")
        }
        #expect(flat > 2000 && other > 2000, "flat \(flat), other \(other)")
    }

    // MARK: - Random documents

    static func write(depth: Int, into text: inout String, random: inout EngagingOrderTests.Generator) {
        space(&text, &random)
        switch random.next(depth < 4 ? 9 : 6) {
        case 0: text += ["null", "true", "false"][random.next(3)]
        case 1, 2: text += number(&random)
        case 3, 4, 5: text += string(&random)
        case 6, 7:
            text += "["
            let count = random.next(5)
            for item in 0..<count {
                if item > 0 { text += "," }
                write(depth: depth + 1, into: &text, random: &random)
            }
            space(&text, &random)
            text += "]"
        default:
            text += "{"
            var keys = Set<String>()
            for _ in 0..<random.next(5) {
                let key = string(&random)
                // Keys unique as Foundation reads them: "é" and "\u00e9" are one key.
                guard case let .string(decoded)? = oracle(Array(key.utf8)), keys.insert(decoded).inserted else {
                    continue
                }
                if keys.count > 1 { text += "," }
                space(&text, &random)
                text += key
                space(&text, &random)
                text += ":"
                write(depth: depth + 1, into: &text, random: &random)
            }
            space(&text, &random)
            text += "}"
        }
        space(&text, &random)
    }

    /// One byte flipped, dropped or doubled, or the document cut there; `bytes` is not empty.
    static func mutate(_ bytes: inout [UInt8], _ random: inout EngagingOrderTests.Generator) {
        let at = random.next(bytes.count)
        switch random.next(4) {
        case 0: bytes[at] = UInt8(random.next(256))
        case 1: bytes.remove(at: at)
        case 2: bytes.insert(bytes[at], at: at)
        default: bytes.removeSubrange(at...)
        }
    }

    static func space(_ text: inout String, _ random: inout EngagingOrderTests.Generator) {
        for _ in 0..<max(0, random.next(6) - 3) { text += [" ", "\n", "\t", "\r"][random.next(4)] }
    }

    static func number(_ random: inout EngagingOrderTests.Generator) -> String {
        let sign = random.next(3) == 0 ? "-" : ""
        let whole = [
            "0", "7", "42", "600000", "9223372036854775807", "9223372036854775808", "123456789012345678901234",
        ][
            random.next(7)]
        let fraction = ["", "", ".0", ".5", ".25", ".000001", ".999999999999999999"][random.next(7)]
        let exponent = ["", "", "", "e2", "E-3", "e+10", "e-30", "e200"][random.next(8)]
        return sign + whole + fraction + exponent
    }

    static func string(_ random: inout EngagingOrderTests.Generator) -> String {
        let pieces = [
            "a", "v000000042", "tab-1", "720p", " ", "é", "😀", "中", #"\""#, #"\\"#, #"\/"#, #"\n"#, #"\t"#, #"\b"#,
            #"\f"#, #"\r"#, #"\u0041"#, #"\u00e9"#, #"\u4e2d"#, #"\ud83d\ude00"#, #"\u0000"#, #"\u001f"#,
        ]
        return "\"" + (0..<random.next(6)).map { _ in pieces[random.next(pieces.count)] }.joined() + "\""
    }
}
