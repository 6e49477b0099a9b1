internal import Foundation

/// The videos seeding inserts, the same on every engine, so a seeded catalog reads back the same pages, items and
/// cursors whichever engine holds it.
package enum SyntheticVideos {
    /// The `n`th synthetic video, with three renditions. Ids are zero-padded so they sort; published times (unix
    /// milliseconds) are one second apart, newest last.
    package static func video(_ n: Int) -> PublishedVideo {
        let id = String(format: "v%09d", n)
        let time = Int64(1_700_000_000 + n) * 1000
        let renditions = [
            ("360p", 360, 640, 600_000), ("720p", 720, 1280, 1_600_000), ("1080p", 1080, 1920, 3_200_000),
        ]
        return PublishedVideo(
            id: id, createdAt: time, publishedAt: time, durationMilliseconds: 15_000 + n % 45_000, width: 1080,
            height: 1920, contentHash: "seed-\(n)", source: nil, masterPath: "videos/\(id)/master.m3u8",
            posterJPEGPath: "videos/\(id)/poster.jpg", posterWebPPath: "videos/\(id)/poster.webp",
            renditions: renditions.map {
                FeedVideo.Rendition(
                    rung: $0.0, width: $0.1, height: $0.2, bandwidth: $0.3,
                    averageBandwidth: $0.3 * 9 / 10, codecs: "avc1.640028,mp4a.40.2", segments: 4)
            })
    }
}
