import Catalog
import Foundation
import MediaModel
import SQLiteCatalog
import Testing

@testable import FeedServer

/// Renditions in several codecs: each one's codec, CRF and target SSIM-Y in the item, after the keys it always had,
/// and the renditions listed by height with H.264 first at each height.
@Suite(.timeLimit(.minutes(5))) struct RenditionCodecTests {
    static func rendition(
        _ id: String, height: Int, codec: String?, crf: Double? = nil, target: Double? = nil,
        prefetch: PrefetchHint? = nil
    ) -> FeedVideo.Rendition {
        FeedVideo.Rendition(
            rung: id, width: height * 9 / 16, height: height, bandwidth: 1_000_000, averageBandwidth: 900_000,
            codecs: "x", segments: 4, videoCodec: codec, crf: crf, targetSSIMY: target, prefetch: prefetch)
    }

    static func video(_ renditions: [FeedVideo.Rendition]) -> FeedVideo {
        FeedVideo(
            id: "v", publishedAt: 0, durationMilliseconds: 8_000, width: 720, height: 1280,
            masterPath: "videos/v/master.m3u8",
            posterJPEGPath: nil, posterWebPPath: nil, renditions: renditions)
    }

    /// The renditions array of a rendered item, as text.
    static func renditionsJSON(_ video: FeedVideo) throws -> String {
        let json = FeedItemRenderer.text(video)
        let start = try #require(json.range(of: #""renditions":"#))
        return String(json[start.upperBound...].dropLast())
    }

    @Test func theNewKeysFollowSegmentsAndPrecedePrefetch() throws {
        let hint = PrefetchHint(
            initBytes: 900, segmentDurationMilliseconds: 2_000,
            firstSegments: [.init(durationMilliseconds: 2_000, bytes: 5)])
        let video = Self.video([
            Self.rendition("720p-hevc", height: 1280, codec: "hevc", crf: 27, target: 0.968, prefetch: hint)
        ])
        #expect(
            try Self.renditionsJSON(video) == """
                [{"rung":"720p-hevc","width":720,"height":1280,"bandwidth":1000000,"average_bandwidth":900000,"codecs":"x","segments":4,\
                "video_codec":"hevc","crf":27,"target_ssim_y":0.968,"prefetch":{"init_bytes":900,"segment_duration_s":2,\
                "first_segments":[{"duration_s":2,"bytes":5}],"window_bytes":905}}]
                """)
    }

    @Test func aMissingValueOmitsItsKeyRatherThanWritingNull() throws {
        let fixed = Self.video([Self.rendition("360p-av1", height: 640, codec: "av1", crf: 38)])
        #expect(try Self.renditionsJSON(fixed).hasSuffix(#""segments":4,"video_codec":"av1","crf":38}]"#))
        let tenths = Self.video([Self.rendition("360p", height: 640, codec: "h264", crf: 22.4)])
        #expect(try Self.renditionsJSON(tenths).hasSuffix(#""segments":4,"video_codec":"h264","crf":22.4}]"#))
        let old = Self.video([Self.rendition("360p", height: 640, codec: nil)])
        #expect(try Self.renditionsJSON(old).hasSuffix(#""codecs":"x","segments":4}]"#))
    }

    @Test func renditionsAreListedByHeightThenH264HEVCAV1() throws {
        let video = Self.video([
            Self.rendition("720p-av1", height: 1280, codec: "av1"),
            Self.rendition("360p-hevc", height: 640, codec: "hevc"),
            Self.rendition("720p", height: 1280, codec: "h264"), Self.rendition("360p-av1", height: 640, codec: "av1"),
            Self.rendition("720p-hevc", height: 1280, codec: "hevc"), Self.rendition("360p", height: 640, codec: nil),
        ])
        let parsed = try JSONSerialization.jsonObject(with: Data(FeedItemRenderer.text(video).utf8)) as? [String: Any]
        let renditions = try #require(parsed?["renditions"] as? [[String: Any]])
        #expect(
            renditions.map { $0["rung"] as? String } == [
                "360p", "360p-hevc", "360p-av1", "720p", "720p-hevc", "720p-av1",
            ])
        // The first rendition of each height is the one every player decodes.
        #expect(renditions[0]["video_codec"] == nil && renditions[3]["video_codec"] as? String == "h264")
    }

    @Test(arguments: [(0.968, "0.968"), (1.0, "1.0"), (0.95, "0.95"), (Double.nan, "null"), (Double.infinity, "null")])
    func doublesAreTheShortestDecimalThatReadsBack(value: Double, text: String) {
        var json = JSONWriter()
        json.double(value)
        #expect(String(decoding: json.bytes, as: UTF8.self) == text)
    }
}

extension FeedItemRenderer {
    /// An item as text, with the default media base.
    static func text(_ video: FeedVideo, mediaBase: MediaBaseURL = .default) -> String {
        String(decoding: render(video, mediaBase: mediaBase), as: UTF8.self)
    }
}
