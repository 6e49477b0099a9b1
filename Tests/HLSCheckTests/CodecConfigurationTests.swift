import Foundation
import MediaFixtures
import TestTraits
import Testing

@testable import HLSCheck

/// RFC 6381 codec strings from configuration records built byte by byte, and from real files.
@Suite(.offThePool, .timeLimit(.minutes(5))) struct CodecConfigurationTests {
    @Test func avcRecordGivesProfileConstraintsAndLevelInHex() throws {
        let record: [UInt8] = [0x01, 0x64, 0x00, 0x1E, 0xFF, 0xE1]
        let configuration = try CodecConfiguration.avc("avc1", record[...])
        #expect(configuration.codec == "avc1.64001e")
        #expect(configuration.nalLengthSize == 4)
    }

    @Test func hevcRecordReversesCompatibilityFlagsAndDropsTrailingZeroConstraints() throws {
        // Main profile, Main tier, level 3.1 (93), progressive + frame-only constraint byte 0xB0, 4-byte lengths.
        let main: [UInt8] = [
            0x01, 0x01, 0x60, 0x00, 0x00, 0x00, 0xB0, 0, 0, 0, 0, 0, 93,
            0xF0, 0x00, 0xFC, 0xFD, 0xF8, 0xF8, 0x00, 0x00, 0x0F, 0x00,
        ]
        #expect(try CodecConfiguration.hevc("hvc1", main[...]).codec == "hvc1.1.6.L93.B0")
        // Main 10, High tier, level 5 (150), no constraint bytes.
        let main10: [UInt8] = [
            0x01, 0x22, 0x20, 0x00, 0x00, 0x00, 0, 0, 0, 0, 0, 0, 150,
            0xF0, 0x00, 0xFC, 0xFD, 0xFA, 0xFA, 0x00, 0x00, 0x0F, 0x00,
        ]
        let configuration = try CodecConfiguration.hevc("hev1", main10[...])
        #expect(configuration.codec == "hev1.2.4.H150")
        #expect(configuration.nalLengthSize == 4)
    }

    @Test func av1RecordGivesProfileLevelTierAndDepth() throws {
        #expect(try CodecConfiguration.av1([0x81, 0x04, 0x0C, 0x00][...]).codec == "av01.0.04M.08")
        #expect(try CodecConfiguration.av1([0x81, 0x08, 0xCC, 0x00][...]).codec == "av01.0.08H.10")
    }

    @Test func esdsGivesTheAudioObjectType() throws {
        // ES_Descriptor > DecoderConfigDescriptor (MPEG-4 audio) > DecoderSpecificInfo, with 4-byte lengths as
        // FFmpeg writes them; AudioSpecificConfig 0x11 0x90 is AAC-LC (object type 2).
        let lc: [UInt8] = [
            0, 0, 0, 0, 0x03, 0x80, 0x80, 0x80, 0x25, 0x00, 0x02, 0x00,
            0x04, 0x80, 0x80, 0x80, 0x17, 0x40, 0x15, 0, 0, 0, 0, 0, 0xFA, 0, 0, 0, 0xFA, 0,
            0x05, 0x80, 0x80, 0x80, 0x05, 0x11, 0x90, 0x56, 0xE5, 0x00,
        ]
        #expect(try CodecConfiguration.mp4a(lc[...]).codec == "mp4a.40.2")
        let he: [UInt8] = [
            0, 0, 0, 0, 0x03, 0x19, 0x00, 0x01, 0x00,
            0x04, 0x11, 0x40, 0x15, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x05, 0x02, 0x2B, 0x10,
        ]
        #expect(try CodecConfiguration.mp4a(he[...]).codec == "mp4a.40.5")
        let mp3: [UInt8] = [
            0, 0, 0, 0, 0x03, 0x10, 0x00, 0x01, 0x00, 0x04, 0x0D, 0x6B, 0x15, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
        ]
        #expect(try CodecConfiguration.mp4a(mp3[...]).codec == "mp4a.6B")
    }

    @Test func truncatedRecordThrowsInsteadOfTrapping() {
        #expect(throws: MediaParseError.self) { try CodecConfiguration.hevc("hvc1", [0x01, 0x01, 0x60][...]) }
        #expect(throws: MediaParseError.self) { try CodecConfiguration.mp4a([0, 0, 0, 0, 0x03][...]) }
    }

    @Test func hevcClipFromLibx265HasAnHEVCCodecString() throws {
        let temporary = try TemporaryDirectory()
        var clip = SyntheticVideo(width: 320, height: 180, seconds: 0.5)
        clip.codec = "libx265"
        clip.audio = nil
        let path = temporary.file("hevc.mp4")
        try clip.write(to: path)
        let file = try InitSegment.parse([UInt8](try Data(contentsOf: URL(fileURLWithPath: path))))
        let video = try #require(file.video)
        #expect(video.format == "hev1" || video.format == "hvc1")
        #expect(
            video.configuration?.codec.hasPrefix("\(video.format!).1.6.L") == true,
            "\(video.configuration?.codec ?? "none")")
        #expect(video.codedWidth == 320 && video.codedHeight == 180)
    }
    /// The public reading the ladder writes its master's CODECS from: one string per track, video then audio.
    @Test(arguments: ["libx264", "libx265"])
    func initSegmentCodecsListsEveryTrackInOrder(encoder: String) throws {
        let temporary = try TemporaryDirectory()
        var clip = SyntheticVideo(width: 320, height: 180, seconds: 0.5)
        clip.codec = encoder
        let path = temporary.file("clip.mp4")
        try clip.write(to: path)
        let codecs = try InitSegmentCodecs.codecs(of: [UInt8](try Data(contentsOf: URL(fileURLWithPath: path))))
        let prefix = ["libx264": "avc1.", "libx265": "hev1."][encoder]!
        #expect(codecs.count == 2, "\(codecs)")
        #expect(
            codecs.first?.hasPrefix(prefix) == true
                || (encoder == "libx265" && codecs.first?.hasPrefix("hvc1.") == true), "\(codecs)")
        #expect(codecs.last == "mp4a.40.2", "\(codecs)")
        #expect(throws: MediaParseError.self) { try InitSegmentCodecs.codecs(of: Array("not an init segment".utf8)) }
    }
}
