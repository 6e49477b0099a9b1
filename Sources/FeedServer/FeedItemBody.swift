internal import FeedStore

/// One video as the JSON API shows it. Paths in the catalog are relative to the library; URLs are under `/media/`.
enum FeedItemBody {
    static func write(_ video: FeedVideo, to json: inout JSONWriter) {
        json.object { json in
            json.key("id"); json.string(video.id)
            json.key("published_at"); json.timestamp(milliseconds: video.publishedAt)
            json.key("duration_s"); json.milliseconds(asSeconds: video.durationMilliseconds)
            json.key("width"); json.int(video.width)
            json.key("height"); json.int(video.height)
            json.key("master_url"); json.mediaURL(video.masterPath)
            json.key("poster_jpeg_url"); json.mediaURL(video.posterJPEGPath)
            json.key("poster_webp_url"); json.mediaURL(video.posterWebPPath)
            json.key("renditions"); json.raw(video.renditionsJSON)  // already JSON, rendered by SQLite
        }
    }

    static func json(_ video: FeedVideo) -> [UInt8] {
        var json = JSONWriter(capacity: 1024)
        write(video, to: &json)
        return json.bytes
    }

    /// `GET /v1/feed`'s body: `{"items": [...], "next_cursor": "..." | null}`.
    static func json(_ page: FeedPage) -> [UInt8] {
        var json = JSONWriter(capacity: 700 * max(1, page.items.count))
        json.object { json in
            json.key("items")
            json.array { json in
                for video in page.items { write(video, to: &json) }
            }
            json.key("next_cursor"); json.string(page.nextCursor?.encoded)
        }
        return json.bytes
    }
}
