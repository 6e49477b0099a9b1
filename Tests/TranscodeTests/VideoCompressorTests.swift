import Foundation
import Ingest
import LibAV
import MediaFixtures
import MediaModel
import TestTraits
import Testing

@testable import Transcode

@Suite(.offThePool, .timeLimit(.minutes(10))) struct VideoCompressorTests {
    let directory: TemporaryDirectory
    init() throws { directory = try TemporaryDirectory() }

    /// 1080p-class tiers shrunk to 180/270 lines so tests stay fast; the rules are the design's.
    static let small = CompressPreset(
        frameRate: 30, keyframeIntervalSeconds: 2, x264Preset: "veryfast", crf: 23, remuxBelowBytes: 10_000_000,
        audio: .init(sampleRate: 48_000, channels: 2),
        presets: [
            .low: .init(shortSide: 90, bitrateKbps: 300, bufferKbits: 600, audioBitrateKbps: 64),
            .medium: .init(shortSide: 180, bitrateKbps: 600, bufferKbits: 1200, audioBitrateKbps: 96),
            .high: .init(shortSide: 270, bitrateKbps: 900, bufferKbits: 1800, audioBitrateKbps: 128),
        ]
    )

    func moovBeforeMdat(_ path: String) throws -> Bool {
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        func find(_ tag: String) -> Int? {
            let needle = Array(tag.utf8)
            return (0...(bytes.count - 4)).first { bytes[$0..<$0 + 4].elementsEqual(needle) }
        }
        guard let moov = find("moov"), let mdat = find("mdat") else { return false }
        return moov < mdat
    }

    @Test func largerOrFasterSourceIsReencodedUprightAtTheTier() throws {
        var clip = SyntheticVideo(width: 640, height: 360, frameRate: (60, 1), seconds: 2)
        clip.rotation = 90
        let source = directory.file("phone.mp4")
        try clip.write(to: source)
        try AdmissionPolicy().check(path: source).info.video.map { #expect($0.rotation == 90) }
        let output = directory.file("small.mp4")
        let summary = try VideoCompressor(preset: Self.small).run(source: source, output: output, quality: .medium)
        #expect(summary.mode == .transcode)
        let info = try AdmissionPolicy().probe(path: output)
        let video = try require(info.video)
        #expect(video.codec == "h264" && video.profile == "High")
        #expect(video.rotation == 0)
        #expect(video.codedWidth == 180 && video.codedHeight == 320)
        #expect(abs(video.averageFrameRate - 30) < 0.01)
        #expect(info.audio?.codec == "aac" && info.audio?.sampleRate == 48_000)
        #expect(try moovBeforeMdat(output))
    }

    /// Without audio: the synthetic tone is far off the loudness target, which sends a fitting file to the encoder
    /// (LoudnessCompressTests has fitting files with audio on and off target).
    @Test func smallFileThatFitsIsOnlyRemuxed() throws {
        var clip = SyntheticVideo(width: 160, height: 90, seconds: 1.5)
        clip.rotation = 270
        clip.audio = nil
        let source = directory.file("fits.mp4")
        try clip.write(to: source)
        let output = directory.file("out.mp4")
        let summary = try VideoCompressor(preset: Self.small).run(source: source, output: output, quality: .high)
        #expect(summary.mode == .remux)
        let video = try require(try AdmissionPolicy().probe(path: output).video)
        #expect(video.rotation == 270)
        #expect(video.frameCount == 45)
        #expect(try moovBeforeMdat(output))
    }

    @Test func neverUpscales() throws {
        let source = directory.file("tiny.mkv")
        var clip = SyntheticVideo(width: 240, height: 136, frameRate: (60, 1), seconds: 1)
        clip.container = "matroska"
        try clip.write(to: source)
        let output = directory.file("tiny.mp4")
        let summary = try VideoCompressor(preset: Self.small).run(source: source, output: output, quality: .high)
        #expect(summary.mode == .transcode)
        #expect(summary.width == 240 && summary.height == 136)
    }

    @Test func overTheUploadLimitIsTooLargeAndWritesNothing() throws {
        let source = directory.file("big.mp4")
        try SyntheticVideo(width: 160, height: 90, seconds: 1.5).write(to: source)
        var limits = AdmissionLimits.default
        limits.video.maxBytes = 1000
        let output = directory.file("out.mp4")
        do {
            _ = try VideoCompressor(policy: AdmissionPolicy(limits: limits), preset: Self.small).run(
                source: source, output: output, quality: .high)
            Issue.record("an oversized file was compressed")
        } catch {
            #expect(error.code == "too_large")
        }
        #expect(!FileManager.default.fileExists(atPath: output))
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["big.mp4"])
    }
}
