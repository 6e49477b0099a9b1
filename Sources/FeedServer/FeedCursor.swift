package import Catalog

/// The HTTP API's opaque cursor: a feed position, base64url-encoded with a version, so clients cannot build one
/// from a raw id and the format can change without touching the catalog.
package struct FeedCursor: Sendable, Hashable {
    package let position: FeedPosition

    init(_ position: FeedPosition) { self.position = position }

    package init(publishedAt: Int64, id: String) { position = FeedPosition(publishedAt: publishedAt, id: id) }

    package struct Malformed: Error, Equatable, CustomStringConvertible {
        let text: String
        package var description: String { "the cursor \"\(text)\" is not one this server issued" }
    }

    package var encoded: String { Base64URL.encode("v1:\(position.publishedAt):\(position.id)".utf8) }

    package init(decoding text: String) throws(Malformed) {
        guard text.utf8.count <= 256, let bytes = Base64URL.decode(text),
            String(validating: bytes, as: UTF8.self) != nil
        else {
            throw Malformed(text: text)
        }
        // Split the bytes: an id that starts with a combining mark makes one Character of it and the colon before
        // it, which hid the split (found by the cursor fuzz target).
        let parts = bytes.split(separator: UInt8(ascii: ":"), maxSplits: 2, omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].elementsEqual("v1".utf8),
            let time = Int64(String(decoding: parts[1], as: UTF8.self)), !parts[2].isEmpty
        else {
            throw Malformed(text: text)
        }
        position = FeedPosition(publishedAt: time, id: String(decoding: parts[2], as: UTF8.self))
    }
}
