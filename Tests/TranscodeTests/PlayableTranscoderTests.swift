import Foundation
import HLSCheck
import Ingest
import LibAV
import LibTurboJPEG
import LibWebP
import MediaFixtures
import MediaModel
import TestTraits
import Testing

@testable import Transcode

/// The provisional rendition (issue 64): a clip already at a rung's size is copied into that rung's segments; any
/// other gets the lowest rung, announced while its EVENT playlist grows.
@Suite(.offThePool, .timeLimit(.minutes(5))) struct PlayableTranscoderTests {
    let directory: TemporaryDirectory
    init() throws { directory = try TemporaryDirectory() }

    /// Small rungs so clips stay tiny; caps high enough for the synthetic pattern to be copied.
    static func ladder(segmentSeconds: Double = 2, cap: Int = 5000) -> LadderPreset {
        LadderPreset(
            segmentSeconds: segmentSeconds, keyframeIntervalSeconds: 1, maxFrameRate: 30, x264Preset: "veryfast",
            audio: .init(sampleRate: 48_000, channels: 2),
            rungs: [
                .init(
                    id: "90p", shortSide: 90, crf: 28, maxBitrateKbps: cap, bufferKbits: cap * 2, audioBitrateKbps: 64),
                .init(
                    id: "180p", shortSide: 180, crf: 28, maxBitrateKbps: cap, bufferKbits: cap * 2, audioBitrateKbps: 96
                ),
            ],
            poster: .init(searchSeconds: 1, rung: "180p"))
    }

    /// `VideoCompressorTests.small`'s medium tier: 180 lines, 2 s keyframes, as `reel compress` makes.
    static let compress = CompressPreset(
        frameRate: 30, keyframeIntervalSeconds: 2, x264Preset: "veryfast", crf: 23, remuxBelowBytes: 0,
        audio: .init(sampleRate: 48_000, channels: 2),
        presets: [
            .low: .init(shortSide: 90, bitrateKbps: 300, bufferKbits: 600, audioBitrateKbps: 64),
            .medium: .init(shortSide: 180, bitrateKbps: 600, bufferKbits: 1200, audioBitrateKbps: 96),
            .high: .init(shortSide: 270, bitrateKbps: 900, bufferKbits: 1800, audioBitrateKbps: 128),
        ])

    func run(
        _ source: String, preset: LadderPreset,
        onReady: (PlayableTranscoder.Report, String) throws -> Void = { _, _ in }
    ) throws -> (PlayableTranscoder.Report, [PlayableTranscoder.Report], String) {
        let admitted = try AdmissionPolicy().admitVideo(path: source)
        let output = directory.file("playable")
        var reports: [PlayableTranscoder.Report] = []
        let last = try PlayableTranscoder(preset: preset).run(admitted, into: output) { report in
            reports.append(report)
            try onReady(report, output)
        }
        return (last, reports, output)
    }

    /// The peak segment rate as the master must cover it: bytes × 8 / EXTINF per segment.
    func measuredPeak(_ rendition: HLSRendition) throws -> Double {
        try rendition.segments.map { segment in
            let size = try FileManager.default.attributesOfItem(atPath: rendition.directory + "/" + segment.file)[.size]
            return Double((size as? Int ?? 0) * 8) / segment.duration
        }.max() ?? 0
    }

    /// Both posters decode, at the rendition's size.
    func expectPosters(in folder: String, width: Int, height: Int) throws {
        let jpeg = [UInt8](try Data(contentsOf: URL(fileURLWithPath: folder + "/poster.jpg")))
        let webp = [UInt8](try Data(contentsOf: URL(fileURLWithPath: folder + "/poster.webp")))
        let header = try JPEGDecompressor().header(of: jpeg)
        #expect(header.width == width && header.height == height)
        let image = try WebPImage(decoding: webp)
        #expect(image.width == width && image.height == height)
    }

    @Test func aCompressedClipIsCopiedIntoItsRungsSegments() throws {
        let original = directory.file("phone.mp4")
        try SyntheticVideo(width: 640, height: 360, frameRate: (30, 1), seconds: 5).write(to: original)
        let source = directory.file("compressed.mp4")
        _ = try VideoCompressor(preset: Self.compress).run(source: original, output: source, quality: .medium)
        let (report, reports, output) = try run(source, preset: Self.ladder())
        #expect(report.mode == .remux && report.reason == nil && report.complete)
        // `reel compress` brought the audio to the target: copied.
        #expect(report.audio == .copied)
        #expect(reports.count == 1 && reports[0].complete)
        let rendition = try #require(report.renditions.first)
        #expect(report.renditions.count == 1)
        #expect(rendition.id == "180p" && rendition.width == 320 && rendition.height == 180)
        #expect(rendition.playlist == "180p/index.m3u8" && rendition.videoCodec == .h264 && rendition.rung == "180p")
        #expect(rendition.codecs.hasPrefix("avc1.64") && rendition.codecs.hasSuffix("mp4a.40.2"))
        #expect(rendition.frames == 150)
        let hls = try HLSRendition(directory: output + "/180p")
        #expect(hls.playlist.contains("#EXT-X-PLAYLIST-TYPE:VOD") && hls.playlist.contains("#EXT-X-ENDLIST"))
        // 5 s in 2 s segments cut at 2 s keyframes: 2, 2, 1.
        #expect(hls.segments.count == 3 && rendition.segments == 3)
        for (index, segment) in hls.segments.enumerated() {
            let reading = try HLSRendition.read(try hls.joined([segment], to: directory.file("seg\(index).mp4")))
            #expect(reading.packets.first?.isKeyframe == true, "segment \(index) starts without a keyframe")
            #expect(reading.decodedFrames > 0 && reading.decodedSize == (320, 180))
            #expect(reading.audio?.codecName == "aac")
        }
        let master = try String(contentsOfFile: output + "/master.m3u8", encoding: .utf8)
        #expect(master.components(separatedBy: "#EXT-X-STREAM-INF:").count == 2)
        #expect(master.contains("#EXT-X-VERSION:7") && master.contains("#EXT-X-INDEPENDENT-SEGMENTS"))
        #expect(master.contains("RESOLUTION=320x180") && master.contains("FRAME-RATE=30.000"))
        #expect(master.contains("BANDWIDTH=\(rendition.bandwidth),AVERAGE-BANDWIDTH=\(rendition.averageBandwidth)"))
        #expect(Double(rendition.bandwidth) >= (try measuredPeak(hls)))
        try expectPosters(in: output, width: 320, height: 180)
        // `reel hls-check`: no MUST finding (one variant: 9.9 waived, as for a source too small for a second rung; no
        // I-frame playlist: 6.1 waived, since the worker publishes the master with the first two segments).
        let check = HLSChecker(options: .init(waivedRules: ["9.9", "6.1"])).check(master: output + "/master.m3u8")
        #expect(check.mustCount == 0, "\(check.findings)")
        #expect(!master.contains("I-FRAME"))
    }

    /// A tone at the synthetic clip's level is off the loudness target: the video is copied, the audio encoded again
    /// at the rung's AAC rate, as long as the video.
    @Test func audioOffTheTargetIsEncodedWhileTheVideoIsCopied() throws {
        let source = directory.file("tone.mp4")
        try SyntheticVideo(width: 320, height: 180, frameRate: (30, 1), seconds: 4).write(to: source)
        let (report, _, output) = try run(source, preset: Self.ladder())
        #expect(report.mode == .remux, "\(String(describing: report.reason))")
        #expect(report.audio == .encoded)
        let hls = try HLSRendition(directory: output + "/180p")
        let reading = try HLSRendition.read(try hls.joined(hls.segments, to: directory.file("all.mp4")))
        #expect(reading.audio?.codecName == "aac" && reading.audio?.sampleRate == 48_000)
        #expect(reading.decodedFrames == 120)
        // 1024 samples a packet at 48 kHz: about 4 s of audio.
        #expect(abs(Double(reading.audioPacketSizes.count) * 1024 / 48_000 - 4) < 0.2)
        #expect(report.renditions[0].codecs.hasSuffix("mp4a.40.2"))
    }

    /// FFmpeg 5.1's hls muxer drops a copied stream's display matrix (docs/quirks.md): the first rung, upright.
    @Test func aRotatedClipGetsTheLowestRungUpright() throws {
        let source = directory.file("rotated.mp4")
        var clip = SyntheticVideo(width: 320, height: 180, frameRate: (30, 1), seconds: 2)
        clip.rotation = 90
        clip.audio = nil
        try clip.write(to: source)
        let (report, _, output) = try run(source, preset: Self.ladder(segmentSeconds: 1))
        #expect(report.mode == .firstRung && report.reason == .rotated && report.audio == .none)
        let rendition = try #require(report.renditions.first)
        #expect(rendition.width == 90 && rendition.height == 160)
        #expect(rendition.codecs.hasPrefix("avc1.") && !rendition.codecs.contains("mp4a"))
        let hls = try HLSRendition(directory: output + "/90p")
        let reading = try HLSRendition.read(try hls.joined(hls.segments, to: directory.file("all.mp4")))
        #expect(reading.video.rotation == 0 && reading.decodedSize == (90, 160))
        try expectPosters(in: output, width: 90, height: 160)
    }

    @Test func aSixtyFrameClipGetsTheLowestRungAnnouncedWhileItGrows() throws {
        let source = directory.file("sixty.mp4")
        try SyntheticVideo(width: 320, height: 180, frameRate: (60, 1), seconds: 3).write(to: source)
        var whileGrowing: String?
        let (report, reports, output) = try run(source, preset: Self.ladder(segmentSeconds: 1)) { report, output in
            guard !report.complete else { return }
            whileGrowing = try String(contentsOfFile: output + "/90p/index.m3u8", encoding: .utf8)
            #expect(FileManager.default.fileExists(atPath: output + "/master.m3u8"))
            #expect(FileManager.default.fileExists(atPath: output + "/90p/init.mp4"))
            try expectPosters(in: output, width: 160, height: 90)
            // While it grows, BANDWIDTH is the rung's cap and its audio.
            #expect(report.renditions[0].bandwidth >= (5000 + 64) * 1000)
        }
        #expect(report.mode == .firstRung && report.reason == .frameRateAboveMax && report.complete)
        #expect(reports.count == 2 && !reports[0].complete && reports[1].complete)
        let growing = try #require(whileGrowing, "playable was not announced before the end")
        #expect(growing.contains("#EXT-X-PLAYLIST-TYPE:EVENT") && !growing.contains("#EXT-X-ENDLIST"))
        #expect(growing.components(separatedBy: "#EXTINF:").count - 1 >= 2)
        let hls = try HLSRendition(directory: output + "/90p")
        #expect(hls.playlist.contains("#EXT-X-PLAYLIST-TYPE:EVENT") && hls.playlist.contains("#EXT-X-ENDLIST"))
        #expect(hls.segments.count == 3)
        let rendition = try #require(report.renditions.first)
        #expect(rendition.id == "90p" && rendition.width == 160 && rendition.height == 90)
        #expect(rendition.frames == 90)  // 60 fps halved to 30
        #expect(Double(rendition.bandwidth) >= (try measuredPeak(hls)))
        for segment in hls.segments {
            let reading = try HLSRendition.read(try hls.joined([segment], to: directory.file("s.mp4")))
            #expect(reading.packets.first?.isKeyframe == true)
            #expect(reading.decodedFormat == .yuv420p && reading.decodedSize == (160, 90))
        }
        let master = try String(contentsOfFile: output + "/master.m3u8", encoding: .utf8)
        #expect(master.contains("BANDWIDTH=\(rendition.bandwidth),") && master.contains("FRAME-RATE=30.000"))
    }

    @Test func tenBitHEVCBecomesEightBitH264() throws {
        let source = directory.file("hevc10.mp4")
        var clip = SyntheticVideo(width: 320, height: 180, frameRate: (30, 1), seconds: 2)
        (clip.codec, clip.tenBit) = ("libx265", true)
        try clip.write(to: source)
        // The ladder's 2 s segments; the first rung cuts 1 s ones, so its first two cost 2 s of decoding, not 4.
        let (report, _, output) = try run(source, preset: Self.ladder(segmentSeconds: 2))
        #expect(report.mode == .firstRung && report.reason == .notH264 && report.complete)
        let hls = try HLSRendition(directory: output + "/90p")
        #expect(hls.segments.count == 2 && hls.playlist.contains("#EXT-X-TARGETDURATION:1"), "\(hls.playlist)")
        for segment in hls.segments {
            let reading = try HLSRendition.read(try hls.joined([segment], to: directory.file("s.mp4")))
            #expect(reading.packets.first?.isKeyframe == true)
        }
        let reading = try HLSRendition.read(try hls.joined(hls.segments, to: directory.file("all.mp4")))
        #expect(reading.video.codecName == "h264" && reading.decodedFormat == .yuv420p)
        #expect(report.renditions[0].codecs.hasPrefix("avc1.64"))
    }

    /// Where the provisional rung scales an HDR picture before converting it: its coded size, for every rotation.
    @Test func theProvisionalScaleIsAtTheCodedSize() {
        for rotation in [0, 90, 180, 270, -90, -180, -270] {
            let coded = LadderSession.codedSize(width: 360, height: 640, rotation: rotation)
            let sideways = rotation % 180 != 0
            #expect(coded == (sideways ? (640, 360) : (360, 640)), "\(rotation): \(coded)")
        }
    }
}
