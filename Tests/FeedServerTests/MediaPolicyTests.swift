import MediaModel
import Testing

/// The one table of types and caching that the media route and object storage share.
@Suite(.timeLimit(.minutes(5))) struct MediaPolicyTests {
    @Test(arguments: [
        ("videos/v/master.m3u8", "application/vnd.apple.mpegurl", "public, max-age=10"),
        ("videos/v/360p/PLAYLIST.M3U8", "application/vnd.apple.mpegurl", "public, max-age=10"),
        ("videos/v/360p/init.mp4", "video/mp4", "public, max-age=31536000, immutable"),
        ("videos/v/360p/seg_00001.m4s", "video/mp4", "public, max-age=31536000, immutable"),
        ("videos/v/poster.jpeg", "image/jpeg", "public, max-age=31536000, immutable"),
        ("images/i.webp", "image/webp", "public, max-age=31536000, immutable"),
        ("videos/v/storyboard.vtt", "text/vtt; charset=utf-8", "public, max-age=31536000, immutable"),
        ("originals/0123456789abcdef0123", "application/octet-stream", "public, max-age=31536000, immutable"),
        ("videos/v.m3u8/segment", "application/octet-stream", "public, max-age=31536000, immutable"),
        ("videos/v/file.", "application/octet-stream", "public, max-age=31536000, immutable"),
    ])
    func aNameGivesItsTypeAndCaching(name: String, type: String, cache: String) {
        let contentType = MediaPolicy.contentType(forName: name[...])
        #expect(contentType == type)
        #expect(MediaPolicy.cacheControl(forContentType: contentType) == cache)
    }
}
