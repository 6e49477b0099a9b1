/// The feed's opaque cursor: the (published_at, id) of the last item served, base64url-encoded with a version,
/// so clients cannot build one from a raw id and the format can change.
public struct FeedCursor: Sendable, Hashable {
    public let publishedAt: Int64
    public let id: String

    public init(publishedAt: Int64, id: String) {
        self.publishedAt = publishedAt
        self.id = id
    }

    public struct Malformed: Error, Equatable, CustomStringConvertible {
        public let text: String
        public var description: String { "the cursor \"\(text)\" is not one this server issued" }
    }

    public var encoded: String { Base64URL.encode("v1:\(publishedAt):\(id)".utf8) }

    public init(decoding text: String) throws(Malformed) {
        guard text.utf8.count <= 256, let bytes = Base64URL.decode(text), let plain = String(validating: bytes, as: UTF8.self) else {
            throw Malformed(text: text)
        }
        let parts = plain.split(separator: ":", maxSplits: 2, omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0] == "v1", let time = Int64(parts[1]), !parts[2].isEmpty else { throw Malformed(text: text) }
        publishedAt = time
        id = String(parts[2])
    }
}
