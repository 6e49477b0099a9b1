package import FileSystem
internal import Foundation
internal import HTTPTypes

/// tus's `Upload-Checksum: <algorithm> <base64 digest>` for one PATCH body; SHA-1 (the protocol's required one)
/// and SHA-256.
package struct UploadChecksum: Sendable, Equatable {
    package let algorithm: ContentHash.Algorithm
    package let digest: [UInt8]

    package init?(header: String?) throws(APIError) {
        guard let header else { return nil }
        let parts = header.split(separator: " ", omittingEmptySubsequences: true)
        guard parts.count == 2 else {
            throw APIError(
                .badRequest, code: "invalid_checksum",
                message: "Upload-Checksum must be \"<algorithm> <base64 digest>\", not \"\(header.prefix(80))\"")
        }
        guard let algorithm = ContentHash.Algorithm(rawValue: parts[0].lowercased()) else {
            throw APIError(
                .badRequest, code: "unsupported_checksum_algorithm",
                message: "Upload-Checksum algorithm \"\(parts[0].prefix(20))\" is not supported; use sha1 or sha256")
        }
        guard let digest = Data(base64Encoded: String(parts[1])), digest.count == (algorithm == .sha1 ? 20 : 32) else {
            throw APIError(
                .badRequest, code: "invalid_checksum",
                message: "Upload-Checksum: the \(algorithm.rawValue) digest is not base64 of the right length")
        }
        self.algorithm = algorithm
        self.digest = Array(digest)
    }
}
