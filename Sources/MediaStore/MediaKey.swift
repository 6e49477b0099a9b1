/// A key inside the library, checked once at construction: not empty, at most 1024 bytes (S3's limit), no leading
/// `/`, no `.` or `..` component, no empty component, no control characters. A directory engine can join it to its
/// root and stay inside; an S3 engine can put it under its prefix.
package struct MediaKey: Sendable, Hashable, Comparable, CustomStringConvertible {
    package let value: String

    package static let maxBytes = 1024

    /// - Throws: `MediaStoreError.badKey` saying which rule `value` broke.
    package init(_ value: String) throws(MediaStoreError) {
        if let problem = Self.problem(value) { throw .badKey(Self.quoted(value), problem: problem) }
        self.value = value
    }

    /// What is wrong with `value` as a key, or nil when it is fine. Pure.
    package static func problem(_ value: String) -> String? {
        if value.isEmpty { return "it is empty" }
        if value.utf8.count > maxBytes { return "it is \(value.utf8.count) bytes, over \(maxBytes)" }
        if value.hasPrefix("/") { return "it starts with /" }
        if value.unicodeScalars.contains(where: {
            $0.value < 0x20 || $0.value == 0x7F || (0x80...0x9F).contains($0.value)
        }) {
            return "it holds a control character"
        }
        for component in value.split(separator: "/", omittingEmptySubsequences: false) {
            if component.isEmpty { return "it has an empty path component (//) or ends with /" }
            if component == "." || component == ".." { return "it has a '\(component)' component" }
        }
        return nil
    }

    /// Whether `prefix` may start a listing: no control characters and no leading `/`.
    package static func isListablePrefix(_ prefix: String) -> Bool {
        !prefix.hasPrefix("/") && !prefix.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F })
    }

    /// The key with `component` appended after a `/`.
    /// - Throws: `MediaStoreError.badKey` when the result breaks a rule.
    package func appending(_ component: String) throws(MediaStoreError) -> MediaKey {
        try MediaKey(value + "/" + component)
    }

    /// The last component: the object's name.
    package var lastComponent: Substring { value.split(separator: "/").last ?? value[...] }

    package var description: String { value }

    package static func < (lhs: MediaKey, rhs: MediaKey) -> Bool { lhs.value < rhs.value }

    /// A key for a message: control characters escaped, at most 120 characters.
    package static func quoted(_ value: String) -> String {
        var out = ""
        for scalar in value.unicodeScalars.prefix(120) {
            if scalar.value < 0x20 || scalar.value == 0x7F {
                out += "\\u{\(String(scalar.value, radix: 16))}"
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
        return "'" + out + (value.unicodeScalars.count > 120 ? "...'" : "'")
    }
}
