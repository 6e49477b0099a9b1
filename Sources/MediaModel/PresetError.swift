/// A preset file Reel will not use: which file, where in it, and what is wrong.
public struct PresetError: Error, CustomStringConvertible, Sendable, Equatable {
    /// What went wrong, as a struct over a private enum so kinds can be added.
    public struct Kind: Sendable, Hashable, CustomStringConvertible {
        private enum Base: String {
            case unreadable = "unreadable"
            case malformed = "not JSON"
            case unknownKey = "unknown key"
            case missingKey = "missing key"
            case wrongType = "wrong type"
            case invalidValue = "invalid value"
        }

        private let base: Base
        private init(_ base: Base) { self.base = base }

        /// The caller could not read the file.
        public static var unreadable: Kind { Kind(.unreadable) }
        /// The text is not JSON.
        public static var malformed: Kind { Kind(.malformed) }
        /// A key the preset does not have, such as a misspelling: never ignored.
        public static var unknownKey: Kind { Kind(.unknownKey) }
        /// A key that has no default, inside an entry of a list.
        public static var missingKey: Kind { Kind(.missingKey) }
        /// A value of the wrong JSON type: a string for a number, a number for a list.
        public static var wrongType: Kind { Kind(.wrongType) }
        /// A value of the right type that a rule refuses: zero where a size must be positive.
        public static var invalidValue: Kind { Kind(.invalidValue) }

        public var description: String { base.rawValue }
    }

    /// The file's name or path, as the caller gave it.
    public var file: String
    public var kind: Kind
    /// Where in the JSON, as `rungs[1].bitrat`; empty when the problem is the file as a whole.
    public var keyPath: String
    /// What is wrong, e.g. `must be positive, got 0`.
    public var message: String
    /// For an unknown key, the keys allowed in its place.
    public var allowedKeys: [String]

    public init(file: String, kind: Kind, keyPath: String = "", message: String, allowedKeys: [String] = []) {
        self.file = file
        self.kind = kind
        self.keyPath = keyPath
        self.message = message
        self.allowedKeys = allowedKeys
    }

    /// For a file that could not be read: callers read preset files themselves.
    public static func unreadable(file: String, reason: String) -> PresetError {
        PresetError(file: file, kind: .unreadable, message: "cannot read it (\(reason))")
    }

    public var description: String {
        let place = keyPath.isEmpty ? "" : " \(keyPath):"
        let allowed = allowedKeys.isEmpty ? "" : "; allowed here: \(allowedKeys.joined(separator: ", "))"
        return "preset \(file):\(place) \(message)\(allowed)"
    }
}

extension PresetError {
    /// The error for what the strict decoder or the standard library's decoders threw.
    init(file: String, decoding error: DecodingError) {
        switch error {
        case let .dataCorrupted(context):
            if let unknown = context.underlyingError as? UnknownKey {
                self.init(
                    file: file, kind: .unknownKey, keyPath: Self.keyPath(context.codingPath),
                    message: "unknown key", allowedKeys: unknown.allowed)
            } else {
                self.init(
                    file: file, kind: .invalidValue, keyPath: Self.keyPath(context.codingPath),
                    message: context.debugDescription)
            }
        case let .keyNotFound(key, context):
            self.init(
                file: file, kind: .missingKey, keyPath: Self.keyPath(context.codingPath + [key]),
                message: "missing (an entry of a list takes no defaults)")
        case let .typeMismatch(_, context), let .valueNotFound(_, context):
            self.init(
                file: file, kind: .wrongType, keyPath: Self.keyPath(context.codingPath),
                message: context.debugDescription)
        @unknown default:
            self.init(file: file, kind: .invalidValue, message: "\(error)")
        }
    }

    /// `rungs[1].bitrat` from a coding path.
    static func keyPath(_ path: [any CodingKey]) -> String {
        path.reduce(into: "") { text, key in
            if let index = key.intValue {
                text += "[\(index)]"
            } else {
                text += text.isEmpty ? key.stringValue : "." + key.stringValue
            }
        }
    }
}
