internal import Foundation

/// A parsed JSON document, kept as a tree so a preset file can be laid over the defaults and then decoded strictly,
/// and so a viewer event's fields can be checked one by one.
public enum JSONValue: Sendable, Equatable {
    case null
    case bool(Bool)
    case integer(Int64)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    /// Parses a JSON document strictly (RFC 8259; `JSONParser`).
    /// - Throws: `JSONSyntaxError`, which says where the text went wrong and why.
    public init(parsing bytes: [UInt8]) throws(JSONSyntaxError) {
        var parser = JSONParser(bytes)
        self = try parser.document()
    }

    /// Each object's members when `bytes` is a JSON list of flat objects (`JSONParser.flatObjects()`); nil for any
    /// other document, valid or not, which `init(parsing:)` reads or explains.
    public static func flatObjects(parsing bytes: [UInt8]) -> [[JSONMember]]? {
        var parser = JSONParser(bytes)
        return parser.flatObjects()
    }

    /// Encodes a value with Foundation's encoder and reads the result back as a tree.
    init(encoding value: some Encodable) throws {
        self = try JSONValue(parsing: Array(JSONEncoder().encode(value)))
    }

    /// `override` laid over `self`: objects merge key by key, anything else in `override` replaces what is here.
    func merging(_ override: JSONValue) -> JSONValue {
        guard case .object(var base) = self, case .object(let top) = override else { return override }
        for (key, value) in top {
            base[key] = base[key].map { $0.merging(value) } ?? value
        }
        return .object(base)
    }

    /// The value as a message quotes it: `1.5`, `"fast"`, or its kind for lists and objects.
    var text: String {
        switch self {
        case let .integer(value): "\(value)"
        case let .number(value): "\(value)"
        case let .string(value): "\"\(value)\""
        case let .bool(value): "\(value)"
        case .null, .array, .object: kind
        }
    }

    /// What a message calls this kind of value: "a string", "an object".
    public var kind: String {
        switch self {
        case .null: "null"
        case .bool: "a boolean"
        case .integer, .number: "a number"
        case .string: "a string"
        case .array: "a list"
        case .object: "an object"
        }
    }
}

/// One member of a JSON object: its key and its value.
public struct JSONMember: Sendable, Equatable {
    public let key: String
    public let value: JSONValue

    public init(key: String, value: JSONValue) {
        self.key = key
        self.value = value
    }
}
