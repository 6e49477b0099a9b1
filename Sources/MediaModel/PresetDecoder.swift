/// A `Decoder` over a parsed preset that refuses, at every level, keys the type being decoded does not declare.
///
/// A type's keys are its `CodingKeys` (declare them `CaseIterable` so an error can list them); a dictionary keyed by
/// a `CaseIterable` string enum (`[ImageQuality: Preset]`) accepts only that enum's names. Numbers must fit the
/// Swift type exactly: `1.5` is not an `Int`, and `300` is not a `UInt8`.
struct PresetDecoder: Decoder {
    let value: JSONValue
    let codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        guard case let .object(object) = value else {
            throw value.mismatch(type, expected: "an object", at: codingPath)
        }
        let unknown = object.keys.filter { Key(stringValue: $0) == nil }
        try Self.refuse(unknown, allowed: Self.names(of: Key.self), at: codingPath)
        return KeyedDecodingContainer(PresetKeyedContainer<Key>(object: object, codingPath: codingPath))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        guard case let .array(items) = value else {
            throw value.mismatch([JSONValue].self, expected: "a list", at: codingPath)
        }
        return PresetListContainer(items: items, codingPath: codingPath)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        PresetValueContainer(value: value, codingPath: codingPath)
    }

    /// Decodes the value at `path`; every container hands its children through here.
    static func decode<T: Decodable>(_ type: T.Type, from value: JSONValue, at path: [any CodingKey]) throws -> T {
        if let table = T.self as? any NamedTable.Type, case let .object(object) = value {
            let allowed = table.names
            try refuse(object.keys.filter { !allowed.contains($0) }, allowed: allowed, at: path)
        }
        return try T(from: PresetDecoder(value: value, codingPath: path))
    }

    /// Throws for the first unknown key (in sorted order, so the message does not change from run to run).
    private static func refuse(_ unknown: some Sequence<String>, allowed: [String], at path: [any CodingKey]) throws {
        guard let key = unknown.sorted().first else { return }
        throw DecodingError.dataCorrupted(
            .init(
                codingPath: path + [PresetKey(key)], debugDescription: "unknown key \"\(key)\"",
                underlyingError: UnknownKey(allowed: allowed.sorted())
            ))
    }

    private static func names<Key: CodingKey>(of type: Key.Type) -> [String] {
        guard let listable = type as? any CaseIterable.Type else { return [] }
        return caseNames(listable)
    }

    private static func caseNames<Keys: CaseIterable>(_ type: Keys.Type) -> [String] {
        Keys.allCases.compactMap { ($0 as? any CodingKey)?.stringValue }
    }
}

/// Carried inside the `DecodingError` for an unknown key: the keys that are allowed in its place.
struct UnknownKey: Error {
    let allowed: [String]
}

/// A key built from a name or a list index, for coding paths.
struct PresetKey: CodingKey {
    let stringValue: String
    let intValue: Int?
    init(_ name: String) { (stringValue, intValue) = (name, nil) }
    init(index: Int) { (stringValue, intValue) = ("\(index)", index) }
    init?(stringValue: String) { self.init(stringValue) }
    init?(intValue: Int) { self.init(index: intValue) }
}

/// Dictionaries keyed by a closed set of names, such as quality tiers: the decoder checks their keys like coding keys.
protocol NamedTable {
    static var names: [String] { get }
}

extension Dictionary: NamedTable where Key: CaseIterable & RawRepresentable, Key.RawValue == String {
    static var names: [String] { Key.allCases.map(\.rawValue) }
}

extension JSONValue {
    /// The error for finding this value where `expected` belongs.
    func mismatch(_ type: Any.Type, expected: String, at path: [any CodingKey]) -> DecodingError {
        let context = DecodingError.Context(codingPath: path, debugDescription: "expected \(expected), found \(kind)")
        return self == .null ? .valueNotFound(type, context) : .typeMismatch(type, context)
    }
}
