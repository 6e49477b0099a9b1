public import FileSystem
internal import Foundation

/// Upload tokens: `reel_` and 32 random bytes in base64url, shown once; the catalog keeps their SHA-256.
public enum BearerToken {
    /// A new token and its hash.
    public static func generate() throws(FileSystemError) -> (token: String, hash: String) {
        var generator = SystemRandomNumberGenerator()  // getrandom(2)
        let bytes = (0..<32).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
        let token =
            "reel_"
            + Data(bytes).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_").replacingOccurrences(
                of: "=", with: "")
        return (token, try hash(token))
    }

    public static func hash(_ token: String) throws(FileSystemError) -> String {
        let digest = try ContentHash(.sha256)
        Array(token.utf8).withUnsafeBytes { digest.update($0) }
        return digest.finish()
    }

    /// The token in `Authorization: Bearer <token>`, or nil when the header is missing or of another scheme.
    public static func fromAuthorization(_ header: String?) -> String? {
        guard let header else { return nil }
        let parts = header.split(separator: " ", maxSplits: 1, omittingEmptySubsequences: true)
        guard parts.count == 2, parts[0].lowercased() == "bearer" else { return nil }
        let token = parts[1].trimmingCharacters(in: .whitespaces)
        return token.isEmpty || token.count > 512 ? nil : token
    }
}
