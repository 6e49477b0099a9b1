package import FileSystem
internal import Foundation

/// Upload tokens: `reel_` and 32 random bytes in base64url, shown once; the catalog keeps their SHA-256.
package enum BearerToken {
    /// A new token and its hash.
    package static func generate() throws(FileSystemError) -> (token: String, hash: String) {
        var generator = SystemRandomNumberGenerator()  // getrandom(2)
        let bytes = (0..<32).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
        let token =
            "reel_"
            + Data(bytes).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_").replacingOccurrences(
                of: "=", with: "")
        return (token, try hash(token))
    }

    package static func hash(_ token: String) throws(FileSystemError) -> String {
        let digest = try ContentHash(.sha256)
        Array(token.utf8).withUnsafeBytes { digest.update($0) }
        return digest.finish()
    }

    /// The token in `Authorization: Bearer <token>`, or nil when the header is missing or of another scheme.
    package static func fromAuthorization(_ header: String?) -> String? {
        guard let header else { return nil }
        // Bytes, not Characters: a space before a combining mark is one Character, which hid the split (found by
        // the bearer fuzz target). The token is RFC 6750's token68, as every token Reel issues is.
        let bytes = Array(header.utf8)
        let space = UInt8(ascii: " "), tab = UInt8(ascii: "\t")
        guard let gap = bytes.firstIndex(of: space),
            String(decoding: bytes[..<gap], as: UTF8.self).lowercased() == "bearer"
        else { return nil }
        var token = bytes[gap...].drop { $0 == space }
        while let last = token.last, last == space || last == tab { token.removeLast() }
        guard !token.isEmpty, token.count <= 512, token.allSatisfy(Self.isToken68) else { return nil }
        return String(decoding: token, as: UTF8.self)
    }

    /// ALPHA, DIGIT, "-", ".", "_", "~", "+", "/" and "=" (RFC 6750 §2.1).
    static func isToken68(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"):
            true
        case UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"), UInt8(ascii: "+"),
            UInt8(ascii: "/"), UInt8(ascii: "="):
            true
        default: false
        }
    }
}
