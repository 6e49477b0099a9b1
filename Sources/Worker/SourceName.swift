internal import Foundation

/// An upload's original name: bytes from the inbox, kept only as data (for logs and the reason file), never
/// used to build a path, URL or command.
package struct SourceName: Sendable, Equatable {
    package let bytes: [UInt8]

    package init(_ bytes: [UInt8]) { self.bytes = bytes }

    /// Printable text: the name when it is valid UTF-8 without control or bidi-override characters, otherwise with
    /// those shown as \u{...} escapes and invalid bytes as \x.. escapes.
    package var display: String {
        if let text = String(validating: bytes, as: UTF8.self) {
            return text.unicodeScalars.map { Self.isUnsafe($0) ? "\\u{\(String($0.value, radix: 16))}" : String($0) }
                .joined()
        }
        return bytes.map { byte in
            guard byte < 0x80 else { return "\\x" + String(byte, radix: 16) }
            let scalar = Unicode.Scalar(byte)
            return Self.isUnsafe(scalar) ? "\\u{\(String(byte, radix: 16))}" : String(scalar)
        }.joined()
    }

    package var isValidUTF8: Bool { String(validating: bytes, as: UTF8.self) != nil }
    package var base64: String { Data(bytes).base64EncodedString() }

    static func isUnsafe(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || scalar.value == 0x7F || (0x80...0x9F).contains(scalar.value)
            || (0x202A...0x202E).contains(scalar.value) || (0x2066...0x2069).contains(scalar.value)
            || scalar.value == 0x200E || scalar.value == 0x200F
    }
}
