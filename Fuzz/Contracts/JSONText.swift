internal import MediaModel

/// A JSON writer of the contracts' own, so a round trip through Reel's parser is checked against text that was not
/// produced by the code under test. Strings escape only what RFC 8259 requires; numbers print as Swift prints them.
enum JSONText {
    static func write(_ value: JSONValue) -> String {
        switch value {
        case .null: "null"
        case let .bool(flag): flag ? "true" : "false"
        case let .integer(whole): String(whole)
        case let .number(fraction): "\(fraction)"
        case let .string(text): quoted(text)
        case let .array(items): "[" + items.map(write).joined(separator: ",") + "]"
        case let .object(members):
            "{" + members.map { quoted($0.key) + ":" + write($0.value) }.joined(separator: ",") + "}"
        }
    }

    static func quoted(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case ..<"\u{20}":
                out += "\\u00" + String(scalar.value >> 4, radix: 16) + String(scalar.value & 15, radix: 16)
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }

    /// Whether two parsed values mean the same document: a whole number may come back as `.integer` from a literal
    /// that was `.number` (`1.0000000000000000001` is the Double 1, written again as `1.0`), and Swift's `String ==`
    /// is canonical equivalence, where JSON keys and strings compare by their scalars.
    static func same(_ left: JSONValue, _ right: JSONValue) -> Bool {
        switch (left, right) {
        case (.null, .null): true
        case let (.bool(a), .bool(b)): a == b
        case let (.integer(a), .integer(b)): a == b
        case let (.number(a), .number(b)): a == b
        case let (.integer(a), .number(b)), let (.number(b), .integer(a)): Double(a) == b
        case let (.string(a), .string(b)): a.unicodeScalars.elementsEqual(b.unicodeScalars)
        case let (.array(a), .array(b)): a.count == b.count && zip(a, b).allSatisfy { same($0, $1) }
        case let (.object(a), .object(b)):
            a.count == b.count
                && a.allSatisfy { key, value in
                    b.first { $0.key.unicodeScalars.elementsEqual(key.unicodeScalars) }.map { same(value, $0.value) }
                        ?? false
                }
        default: false
        }
    }
}
