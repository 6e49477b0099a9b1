/// A key inside the library's bucket and prefix, checked once at construction: not empty, at most 1024 bytes (S3's
/// limit), no leading `/`, no `.` or `..` component, no empty component, and no control characters. Keys come from
/// the catalog and from server-made ids, never from a request path; the check is the last guard if one ever did.
package struct ObjectKey: Sendable, Hashable, CustomStringConvertible {
    package let value: String

    package static let maxBytes = 1024

    /// - Throws: `ObjectStoreError` `.badKey` saying which rule `value` broke.
    package init(_ value: String) throws(ObjectStoreError) {
        if let problem = Self.problem(value) {
            throw ObjectStoreError(.badKey, "object key \(Self.quoted(value)) refused: \(problem)")
        }
        self.value = value
    }

    /// What is wrong with `value` as a key, or nil when it is fine. Pure.
    package static func problem(_ value: String) -> String? {
        if value.isEmpty { return "it is empty" }
        if value.utf8.count > maxBytes { return "it is \(value.utf8.count) bytes, over S3's \(maxBytes)" }
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

    /// `prefix/self`, or `self` when the prefix is empty.
    package func under(_ prefix: String) -> String { prefix.isEmpty ? value : prefix + "/" + value }

    /// The key with `component` appended after a `/`.
    /// - Throws: `ObjectStoreError` `.badKey` when the result breaks a rule.
    package func appending(_ component: String) throws(ObjectStoreError) -> ObjectKey {
        try ObjectKey(value + "/" + component)
    }

    package var description: String { value }

    /// The key for a message: control characters escaped, at most 120 characters.
    static func quoted(_ value: String) -> String {
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
