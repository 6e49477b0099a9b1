internal import FeedStore

/// The HTTP API's opaque cursor: a feed position, base64url-encoded with a version, so clients cannot build one
/// from a raw id and the format can change without touching the catalog.
struct FeedCursor: Sendable, Hashable {
    let position: FeedPosition

    init(_ position: FeedPosition) { self.position = position }

    init(publishedAt: Int64, id: String) { position = FeedPosition(publishedAt: publishedAt, id: id) }

    struct Malformed: Error, Equatable, CustomStringConvertible {
        let text: String
        var description: String { "the cursor \"\(text)\" is not one this server issued" }
    }

    var encoded: String { Base64URL.encode("v1:\(position.publishedAt):\(position.id)".utf8) }

    init(decoding text: String) throws(Malformed) {
        guard text.utf8.count <= 256, let bytes = Base64URL.decode(text),
            let plain = String(validating: bytes, as: UTF8.self)
        else {
            throw Malformed(text: text)
        }
        let parts = plain.split(separator: ":", maxSplits: 2, omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0] == "v1", let time = Int64(parts[1]), !parts[2].isEmpty else {
            throw Malformed(text: text)
        }
        position = FeedPosition(publishedAt: time, id: String(parts[2]))
    }
}
