internal import Catalog
internal import FeedServer

/// A feed cursor (`?cursor=`, from any client): text that decodes re-encodes to a cursor that decodes to the same
/// position; and any position a page can end on encodes to text that decodes back to it.
enum CursorContract {
    static let target = FuzzTarget(
        name: "cursor", contract: "decoded text re-encodes to the same position; every position round-trips"
    ) { (bytes: [UInt8]) throws(ContractBroken) in
        let text = String(decoding: bytes, as: UTF8.self)
        if let cursor = try? FeedCursor(decoding: text) {
            let again = try? FeedCursor(decoding: cursor.encoded)
            try expect(again == cursor, "\(text) decoded to \(cursor.position), whose text \(cursor.encoded) did not")
        }
        // The same bytes as a position: the first eight the time, the rest the id (ids are never empty).
        let time = bytes.prefix(8).reduce(Int64(0)) { $0 << 8 | Int64($1) }
        let id = String(decoding: bytes.dropFirst(8), as: UTF8.self)
        guard !id.isEmpty else { return }
        let cursor = FeedCursor(publishedAt: time, id: id)
        guard cursor.encoded.utf8.count <= 256 else { return }  // longer cursors are refused; ids are shorter
        let decoded = try? FeedCursor(decoding: cursor.encoded)
        try expect(decoded == cursor, "the position (\(time), \(id.debugDescription)) did not round-trip")
    }
}
