package import Catalog
internal import Foundation

/// An inbox upload's sidecar, `NAME.json` beside `NAME`: a JSON object with any of `caption`, `title` and `creator`
/// as strings, held to the same limits as tus's `Upload-Metadata` (`PostFacts`). Pure: the worker reads the bytes.
package enum PostSidecar {
    /// The largest sidecar read: a caption at its byte limit, escaped, fits well within it.
    package static let maximumBytes = 64 << 10

    /// What was wrong with a sidecar, in words that name the field or the limit.
    package struct Invalid: Error, Equatable, CustomStringConvertible {
        package let message: String
        package var description: String { message }

        package init(message: String) { self.message = message }
    }

    /// The facts a sidecar gives; the creator is nil unless it names one.
    package static func facts(from bytes: [UInt8]) throws(Invalid) -> PostFacts {
        guard bytes.count <= maximumBytes else {
            throw Invalid(message: "the sidecar has \(bytes.count) bytes; at most \(maximumBytes) are read")
        }
        let parsed: Any
        do {
            parsed = try JSONSerialization.jsonObject(with: Data(bytes), options: [])
        } catch {
            throw Invalid(message: "the sidecar is not valid JSON in UTF-8")
        }
        guard let object = parsed as? [String: Any] else {
            throw Invalid(message: "the sidecar is not a JSON object")
        }
        let known = Set(PostFacts.Field.allCases.map(\.rawValue))
        if let unknown = object.keys.sorted().first(where: { !known.contains($0) }) {
            throw Invalid(
                message:
                    "the sidecar has the key \"\(unknown.prefix(40))\"; only caption, title, creator and visibility are read"
            )
        }
        var values: [PostFacts.Field: [UInt8]] = [:]
        for field in PostFacts.Field.allCases {
            guard let value = object[field.rawValue] else { continue }
            guard let text = value as? String else {
                throw Invalid(message: "the sidecar's \(field.rawValue) is not a string")
            }
            values[field] = Array(text.utf8)
        }
        do {
            return try PostFacts.validated(
                caption: values[.caption], title: values[.title], creator: values[.creator],
                visibility: values[.visibility])
        } catch {
            throw Invalid(message: "the sidecar's \(error)")
        }
    }
}
