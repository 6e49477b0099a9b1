internal import Foundation
public import GRDB

extension FeedStore {
    /// Inserts `count` synthetic published videos (3 renditions each) in batched transactions, for tests and
    /// benchmarks. Ids are zero-padded so they sort; published times (unix milliseconds) are one second apart, newest last.
    public func seed(count: Int, startingAt start: Int = 0, batch: Int = 50_000) throws {
        var done = 0
        while done < count {
            let size = min(batch, count - done)
            try database.pool.write { db in
                let video = try db.makeStatement(sql: """
                    INSERT INTO videos (id, status, created_at, published_at, duration_ms, width, height, content_hash,
                                        master_path, poster_jpeg_path, poster_webp_path)
                    VALUES (?, 'published', ?, ?, ?, 1080, 1920, ?, ?, ?, ?)
                    """)
                let rendition = try db.makeStatement(sql: """
                    INSERT INTO renditions (video_id, rung, width, height, bandwidth, average_bandwidth, codecs, segments)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                    """)
                for n in (start + done)..<(start + done + size) {
                    let id = String(format: "v%09d", n)
                    let time = Int64(1_700_000_000 + n) * 1000
                    try video.execute(arguments: [id, time, time, 15_000 + n % 45_000, "seed-\(n)",
                                                  "videos/\(id)/master.m3u8", "videos/\(id)/poster.jpg", "videos/\(id)/poster.webp"])
                    for (rung, w, h, bw) in [("360p", 360, 640, 600_000), ("720p", 720, 1280, 1_600_000), ("1080p", 1080, 1920, 3_200_000)] {
                        try rendition.execute(arguments: [id, rung, w, h, bw, bw * 9 / 10, "avc1.640028,mp4a.40.2", 4])
                    }
                }
            }
            done += size
        }
    }
}
