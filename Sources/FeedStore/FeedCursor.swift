internal import Foundation

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

    public var encoded: String {
        Data("v1:\(publishedAt):\(id)".utf8).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
    }

    public init(decoding text: String) throws(Malformed) {
        var base64 = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while base64.count % 4 != 0 { base64 += "=" }
        guard text.count <= 256, let data = Data(base64Encoded: base64), let plain = String(data: data, encoding: .utf8) else {
            throw Malformed(text: text)
        }
        let parts = plain.split(separator: ":", maxSplits: 2, omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0] == "v1", let time = Int64(parts[1]), !parts[2].isEmpty else { throw Malformed(text: text) }
        publishedAt = time
        id = String(parts[2])
    }
}
