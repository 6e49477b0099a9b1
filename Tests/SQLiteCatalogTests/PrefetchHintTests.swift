import Foundation
import MediaFixtures
import MediaModel
import Testing

@testable import Catalog
@testable import SQLiteCatalog

/// Prefetch hints: read from a media playlist (pure), stored with the rendition, shown in the feed item.
@Suite(.timeLimit(.minutes(5))) struct PrefetchHintTests {
    static func playlist(_ durations: [Double], target: Int = 4, map: Bool = true) -> String {
        "#EXTM3U\n#EXT-X-VERSION:7\n#EXT-X-TARGETDURATION:\(target)\n#EXT-X-PLAYLIST-TYPE:VOD\n"
            + (map ? "#EXT-X-MAP:URI=\"init.mp4\"\n" : "")
            + durations.enumerated().map {
                "#EXTINF:\(String(format: "%.3f", $1)),\nseg_\(String(format: "%03d", $0)).m4s\n"
            }.joined()
            + "#EXT-X-ENDLIST\n"
    }

    static let sizes = [
        "init.mp4": 900, "seg_000.m4s": 10_000, "seg_001.m4s": 11_000, "seg_002.m4s": 12_000, "seg_003.m4s": 13_000,
    ]

    @Test(arguments: [
        ([4.0, 4.0, 4.0], [(4000, 10_000)]),
        ([2.0, 2.0, 2.0, 1.5], [(2000, 10_000), (2000, 11_000)]),
        ([1.0, 1.0, 1.0, 1.0], [(1000, 10_000), (1000, 11_000), (1000, 12_000)]),
        ([1.5], [(1500, 10_000)]),
        ([2.999, 0.5], [(2999, 10_000), (500, 11_000)]),
    ])
    func theFirstSegmentsCoverTheThreeSecondWindow(durations: [Double], expected: [(Int, Int)]) throws {
        let hint = try #require(PrefetchHint(mediaPlaylist: Self.playlist(durations)) { Self.sizes[$0] })
        #expect(hint.initBytes == 900 && hint.segmentDurationMilliseconds == 4000)
        #expect(hint.firstSegments.map(\.durationMilliseconds) == expected.map(\.0))
        #expect(hint.firstSegments.map(\.bytes) == expected.map(\.1))
        #expect(hint.windowBytes == 900 + expected.map(\.1).reduce(0, +))
    }

    @Test func aMissingFileOrInitSegmentGivesNoHintRatherThanAWrongOne() {
        #expect(
            PrefetchHint(mediaPlaylist: Self.playlist([4, 4])) { $0 == "seg_000.m4s" ? nil : Self.sizes[$0] } == nil)
        #expect(PrefetchHint(mediaPlaylist: Self.playlist([4, 4])) { $0 == "init.mp4" ? nil : Self.sizes[$0] } == nil)
        #expect(PrefetchHint(mediaPlaylist: Self.playlist([4, 4], map: false)) { Self.sizes[$0] } == nil)
        #expect(
            PrefetchHint(
                mediaPlaylist:
                    "#EXTM3U\n#EXT-X-TARGETDURATION:4\n#EXT-X-MAP:URI=\"init.mp4\"\n#EXTINF:abc,\nseg_000.m4s\n"
            ) { Self.sizes[$0] } == nil)
        #expect(PrefetchHint(mediaPlaylist: "") { Self.sizes[$0] } == nil)
    }

    @Test func hintsAreStoredAndReadBackWithThePage() async throws {
        let directory = try TemporaryDirectory()
        let store = SQLiteCatalogEngine(database: try SQLiteCatalogDatabase(path: directory.file("catalog.sqlite")))
        let hint = PrefetchHint(
            initBytes: 812, segmentDurationMilliseconds: 4000,
            firstSegments: [.init(durationMilliseconds: 4000, bytes: 201_234)])
        try await store.publish(
            PublishedVideo(
                id: "hinted", createdAt: 1, publishedAt: 2, durationMilliseconds: 16_000, width: 720, height: 1280,
                contentHash: "h",
                source: nil, masterPath: "videos/hinted/master.m3u8", posterJPEGPath: "videos/hinted/poster.jpg",
                posterWebPPath: "videos/hinted/poster.webp",
                renditions: [
                    FeedVideo.Rendition(
                        rung: "720p", width: 720, height: 1280, bandwidth: 2_000_000, averageBandwidth: 1_800_000,
                        codecs: "avc1.64001f,mp4a.40.2", segments: 4, prefetch: hint),
                    FeedVideo.Rendition(
                        rung: "360p", width: 360, height: 640, bandwidth: 700_000, averageBandwidth: 600_000,
                        codecs: "avc1.64001e,mp4a.40.2", segments: 4),
                ]))
        #expect(try await store.video(id: "hinted")?.renditions.map(\.prefetch) == [nil, hint])
        let item = try #require(try await store.page(limit: 1, after: nil).items.first)
        // The page's record carries them, for the feed server to show (RenditionCodecTests checks how).
        #expect(try item.video().renditions.map(\.prefetch) == [nil, hint])
    }
}
