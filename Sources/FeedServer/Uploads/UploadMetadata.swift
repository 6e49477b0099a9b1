package import Catalog
internal import Foundation
internal import HTTPTypes

/// tus's `Upload-Metadata`: comma-separated `key base64value` pairs (the value may be absent). Reel reads
/// `filename`, `filetype`, and the post's `caption`, `title` and `creator`; other keys are kept in the header for
/// `HEAD` and otherwise ignored.
package struct UploadMetadata: Sendable, Equatable {
    package var pairs: [String: [UInt8]]

    package init(header: String?) throws(APIError) {
        pairs = [:]
        guard let header, !header.trimmingCharacters(in: .whitespaces).isEmpty else { return }
        for element in header.split(separator: ",", omittingEmptySubsequences: false) {
            let parts = element.trimmingCharacters(in: .whitespaces).split(
                separator: " ", omittingEmptySubsequences: true)
            guard let key = parts.first, parts.count <= 2, !key.isEmpty,
                key.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F && $0 != UInt8(ascii: ",") })
            else {
                throw Self.invalid("each pair is a key, a space and a base64 value: \"\(element.prefix(80))\"")
            }
            guard pairs[String(key)] == nil else { throw Self.invalid("the key \"\(key.prefix(40))\" appears twice") }
            var value: [UInt8] = []
            if parts.count == 2 {
                guard let decoded = Data(base64Encoded: String(parts[1])) else {
                    throw Self.invalid("the value of \"\(key.prefix(40))\" is not base64")
                }
                value = Array(decoded)
            }
            pairs[String(key)] = value
        }
    }

    /// The client's file name, without any directory part; nil when none was given.
    package var filename: [UInt8]? {
        guard let name = pairs["filename"], !name.isEmpty else { return nil }
        let base = name.split(separator: UInt8(ascii: "/")).last.map(Array.init) ?? []
        return base.isEmpty || base == Array("..".utf8) || base == Array(".".utf8) ? nil : Array(base.prefix(255))
    }

    package var filetype: String? { pairs["filetype"].map { String(decoding: $0, as: UTF8.self) } }

    /// The post's caption, title and creator; the creator is `defaultCreator` (the token's name) unless given.
    /// - Throws: 400 `invalid_metadata` naming the field and the limit it broke.
    package func post(defaultCreator: String) throws(APIError) -> PostFacts {
        do {
            return try PostFacts.validated(
                caption: pairs["caption"], title: pairs["title"], creator: pairs["creator"],
                visibility: pairs["visibility"], defaultCreator: defaultCreator)
        } catch {
            throw APIError(
                .badRequest, code: "invalid_metadata", message: "Upload-Metadata: \(error)",
                field: error.field.rawValue)
        }
    }

    package var declaresImage: Bool { filetype?.lowercased().hasPrefix("image/") == true }

    static func invalid(_ message: String) -> APIError {
        APIError(.badRequest, code: "invalid_metadata", message: "Upload-Metadata: \(message)")
    }
}
