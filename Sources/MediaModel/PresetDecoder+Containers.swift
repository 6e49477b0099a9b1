/// An object whose keys `PresetDecoder` has already checked against `Key`.
struct PresetKeyedContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let object: [String: JSONValue]
    let codingPath: [any CodingKey]

    var allKeys: [Key] { object.keys.sorted().compactMap { Key(stringValue: $0) } }

    func contains(_ key: Key) -> Bool { object[key.stringValue] != nil }

    func decodeNil(forKey key: Key) throws -> Bool { try value(for: key) == .null }

    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        try PresetDecoder.decode(type, from: try value(for: key), at: codingPath + [key])
    }

    func nestedContainer<NestedKey: CodingKey>(
        keyedBy type: NestedKey.Type, forKey key: Key
    ) throws -> KeyedDecodingContainer<NestedKey> {
        try decoder(for: key).container(keyedBy: type)
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        try decoder(for: key).unkeyedContainer()
    }

    func superDecoder() throws -> any Decoder { try decoder(for: PresetKey("super")) }

    func superDecoder(forKey key: Key) throws -> any Decoder { try decoder(for: key) }

    private func decoder(for key: some CodingKey) throws -> PresetDecoder {
        PresetDecoder(value: try value(for: key), codingPath: codingPath + [key])
    }

    private func value(for key: some CodingKey) throws -> JSONValue {
        guard let value = object[key.stringValue] else {
            throw DecodingError.keyNotFound(
                key, .init(codingPath: codingPath, debugDescription: "missing key \"\(key.stringValue)\""))
        }
        return value
    }
}

/// A list, read front to back.
struct PresetListContainer: UnkeyedDecodingContainer {
    let items: [JSONValue]
    let codingPath: [any CodingKey]
    private(set) var currentIndex = 0

    init(items: [JSONValue], codingPath: [any CodingKey]) {
        self.items = items
        self.codingPath = codingPath
    }

    var count: Int? { items.count }
    var isAtEnd: Bool { currentIndex >= items.count }

    mutating func decodeNil() throws -> Bool {
        guard !isAtEnd, items[currentIndex] == .null else { return false }
        currentIndex += 1
        return true
    }

    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
        let value = try PresetDecoder.decode(
            type, from: try next(type), at: codingPath + [PresetKey(index: currentIndex)])
        currentIndex += 1
        return value
    }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy type: NestedKey.Type
    ) throws -> KeyedDecodingContainer<NestedKey> {
        let container = try nextDecoder(type).container(keyedBy: type)
        currentIndex += 1
        return container
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        let container = try nextDecoder([JSONValue].self).unkeyedContainer()
        currentIndex += 1
        return container
    }

    mutating func superDecoder() throws -> any Decoder {
        let decoder = try nextDecoder(JSONValue.self)
        currentIndex += 1
        return decoder
    }

    private func nextDecoder(_ type: Any.Type) throws -> PresetDecoder {
        PresetDecoder(value: try next(type), codingPath: codingPath + [PresetKey(index: currentIndex)])
    }

    private func next(_ type: Any.Type) throws -> JSONValue {
        guard !isAtEnd else {
            throw DecodingError.valueNotFound(
                type,
                .init(
                    codingPath: codingPath + [PresetKey(index: currentIndex)],
                    debugDescription: "the list has only \(items.count) entries"
                ))
        }
        return items[currentIndex]
    }
}

/// One value: where JSON's types meet Swift's.
struct PresetValueContainer: SingleValueDecodingContainer {
    let value: JSONValue
    let codingPath: [any CodingKey]

    func decodeNil() -> Bool { value == .null }

    func decode(_ type: Bool.Type) throws -> Bool {
        guard case let .bool(bool) = value else {
            throw value.mismatch(type, expected: "true or false", at: codingPath)
        }
        return bool
    }

    func decode(_ type: String.Type) throws -> String {
        guard case let .string(string) = value else { throw value.mismatch(type, expected: "a string", at: codingPath) }
        return string
    }

    func decode(_ type: Double.Type) throws -> Double { try number() }
    func decode(_ type: Float.Type) throws -> Float { Float(try number()) }
    func decode(_ type: Int.Type) throws -> Int { try integer(type) }
    func decode(_ type: Int8.Type) throws -> Int8 { try integer(type) }
    func decode(_ type: Int16.Type) throws -> Int16 { try integer(type) }
    func decode(_ type: Int32.Type) throws -> Int32 { try integer(type) }
    func decode(_ type: Int64.Type) throws -> Int64 { try integer(type) }
    func decode(_ type: UInt.Type) throws -> UInt { try integer(type) }
    func decode(_ type: UInt8.Type) throws -> UInt8 { try integer(type) }
    func decode(_ type: UInt16.Type) throws -> UInt16 { try integer(type) }
    func decode(_ type: UInt32.Type) throws -> UInt32 { try integer(type) }
    func decode(_ type: UInt64.Type) throws -> UInt64 { try integer(type) }

    func decode<T: Decodable>(_ type: T.Type) throws -> T {
        try PresetDecoder.decode(type, from: value, at: codingPath)
    }

    private func number() throws -> Double {
        switch value {
        case let .integer(integer): return Double(integer)
        case let .number(number): return number
        default: throw value.mismatch(Double.self, expected: "a number", at: codingPath)
        }
    }

    private func integer<T: FixedWidthInteger>(_ type: T.Type) throws -> T {
        let exact: T?
        switch value {
        case let .integer(integer): exact = T(exactly: integer)
        case let .number(number): exact = T(exactly: number)
        default: throw value.mismatch(type, expected: "a whole number", at: codingPath)
        }
        guard let exact else {
            throw DecodingError.dataCorrupted(
                .init(
                    codingPath: codingPath,
                    debugDescription: "expected a whole number from \(T.min) to \(T.max), found \(value.text)"
                ))
        }
        return exact
    }
}
