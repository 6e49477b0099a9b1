internal import FeedServer

/// The engaging feed's cursor (`?cursor=` under `--feed-order engaging`): text that decodes re-encodes to a cursor
/// that decodes to the same ranking and offset, inside the offsets a server issues; any such position round-trips.
enum RankedCursorContract {
    static let target = FuzzTarget(
        name: "ranked-cursor", contract: "decoded text re-encodes to the same ranking and offset; positions round-trip"
    ) { (bytes: [UInt8]) throws(ContractBroken) in
        let text = String(decoding: bytes, as: UTF8.self)
        if let cursor = try? RankedCursor(decoding: text) {
            try expect(
                cursor.ranking > 0 && (0...RankedCursor.maximumOffset).contains(cursor.offset),
                "\(text) decoded to ranking \(cursor.ranking), offset \(cursor.offset)")
            let again = try? RankedCursor(decoding: cursor.encoded)
            try expect(again == cursor, "\(text) decoded to \(cursor), whose text \(cursor.encoded) did not")
        }
        // The same bytes as a position: the first eight the ranking, the next four the offset.
        let ranking = bytes.prefix(8).reduce(Int64(0)) { $0 << 8 | Int64($1) }
        let offset = bytes.dropFirst(8).prefix(4).reduce(0) { $0 << 8 | Int($1) } % (RankedCursor.maximumOffset + 1)
        guard ranking > 0 else { return }
        let cursor = RankedCursor(ranking: ranking, offset: offset)
        let decoded = try? RankedCursor(decoding: cursor.encoded)
        try expect(decoded == cursor, "the position (\(ranking), \(offset)) did not round-trip")
    }
}
