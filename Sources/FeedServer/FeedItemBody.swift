internal import Catalog
internal import NIOCore

/// `GET /v1/feed`'s body, `{"items": [...], "next_cursor": "..." | null}`, assembled from the items' JSON as
/// `RenderedItems` keeps it: a page of items rendered before is a copy of bytes, not a render.
enum FeedItemBody {
    static func page(_ page: FeedPage, nextCursor: String?, items: RenderedItems) throws(CatalogError) -> ByteBuffer {
        var buffer = ByteBuffer()
        buffer.reserveCapacity(64 + page.items.reduce(0) { $0 + $1.record.count * 3 })
        buffer.writeStaticString("{\"items\":[")
        try items.write(page.items, into: &buffer)
        buffer.writeStaticString("],\"next_cursor\":")
        if let next = nextCursor {
            // base64url: nothing to escape.
            buffer.writeStaticString("\"")
            buffer.writeString(next)
            buffer.writeStaticString("\"}")
        } else {
            buffer.writeStaticString("null}")
        }
        return buffer
    }
}
