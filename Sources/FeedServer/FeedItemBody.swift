internal import FeedStore
internal import NIOCore

/// `GET /v1/feed`'s body, `{"items": [...], "next_cursor": "..." | null}`, assembled from the items' stored JSON
/// (`FeedItemJSON`, rendered at publish): a page is a copy of bytes, not a render.
enum FeedItemBody {
    static func page(_ page: FeedPage) -> ByteBuffer {
        var buffer = ByteBuffer()
        buffer.reserveCapacity(64 + page.items.reduce(0) { $0 + $1.json.utf8.count + 1 })
        buffer.writeStaticString("{\"items\":[")
        for (index, item) in page.items.enumerated() {
            if index > 0 { buffer.writeStaticString(",") }
            buffer.writeString(item.json)
        }
        buffer.writeStaticString("],\"next_cursor\":")
        if let next = page.nextCursor {
            // base64url: nothing to escape.
            buffer.writeStaticString("\"")
            buffer.writeString(next.encoded)
            buffer.writeStaticString("\"}")
        } else {
            buffer.writeStaticString("null}")
        }
        return buffer
    }
}
