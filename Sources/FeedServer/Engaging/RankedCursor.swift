/// The engaging feed's opaque cursor: a stored ranking's number and how many of its videos the pages so far went
/// through. It pins the ranking: the next pages come from the same order however scores move meanwhile.
package struct RankedCursor: Sendable, Hashable {
    package let ranking: Int64
    package let offset: Int

    /// Far beyond any catalog: a larger offset is not one this server issued.
    package static let maximumOffset = 100_000_000

    package init(ranking: Int64, offset: Int) {
        self.ranking = ranking
        self.offset = offset
    }

    package struct Malformed: Error, Equatable, CustomStringConvertible {
        let text: String
        let isRecentOrder: Bool
        package var description: String {
            isRecentOrder
                ? "the cursor \"\(text)\" is from the newest-first feed, and this server serves --feed-order engaging"
                : "the cursor \"\(text)\" is not one this server issued"
        }
    }

    package var encoded: String { Base64URL.encode("v2:\(ranking):\(offset)".utf8) }

    package init(decoding text: String) throws(Malformed) {
        guard text.utf8.count <= 256, let bytes = Base64URL.decode(text),
            let plain = String(validating: bytes, as: UTF8.self)
        else {
            throw Malformed(text: text, isRecentOrder: false)
        }
        let parts = plain.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0] == "v2", let ranking = Int64(parts[1]), ranking > 0,
            let offset = Int(parts[2]), (0...Self.maximumOffset).contains(offset)
        else {
            throw Malformed(text: text, isRecentOrder: parts.first == "v1")
        }
        self.ranking = ranking
        self.offset = offset
    }
}
