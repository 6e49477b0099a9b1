import Foundation
import MediaFixtures
import TestTraits
import Testing

@testable import HLSCheck

/// Colour tags and bit depth as the checker reads them from init segments: the `colr` box, the H.264 SPS when
/// there is none, and the configuration records; built byte by byte, and from real encodes.
@Suite(.offThePool, .timeLimit(.minutes(5))) struct VideoColourTests {
    typealias Build = InitSegmentBuilder

    func video(_ bytes: [UInt8]) throws -> InitSegment.Track {
        try #require(try InitSegment.parse(bytes).video)
    }

    @Test func nclxBoxGivesTheCodePointsAndTheRangeFlag() throws {
        let sps = SPSFields(signal: (false, 1, 1, 1)).nal
        let track = try video(
            Build.video(children: [
                Build.avcC(sps), Build.colour(primaries: 9, transfer: 18, matrix: 9, fullRange: true),
            ]))
        #expect(track.colour.origin == .colourBox)
        #expect(track.colour.primaries == 9 && track.colour.transfer == 18 && track.colour.matrix == 9)
        #expect(track.colour.isFullRange)
        #expect(track.colour.videoRange == "HLG")
        #expect(track.bitDepth == 8)
        // The SPS says BT.709, but a player takes the box: so does the checker.
        #expect(track.configuration?.sequenceColour?.transfer == 1)
    }

    @Test func iccProfileIsPassedOverForTheNclcBoxAfterIt() throws {
        let icc = Build.box("colr", Array("prof".utf8) + [UInt8](repeating: 0x11, count: 24))
        let track = try video(
            Build.video(children: [
                Build.avcC(SPSFields().nal), icc, Build.colour("nclc", primaries: 1, transfer: 16, matrix: 1),
            ]))
        #expect(track.colour == VideoColour(primaries: 1, transfer: 16, matrix: 1, origin: .colourBox))
        #expect(track.colour.videoRange == "PQ")
    }

    @Test func withoutColrTheSPSVideoSignalTypeGivesTheTags() throws {
        let sps = SPSFields(profile: 110, lumaBitDepth: 10, signal: (false, 9, 18, 9)).nal
        let track = try video(Build.video(children: [Build.avcC(sps)]))
        #expect(
            track.colour == VideoColour(primaries: 9, transfer: 18, matrix: 9, origin: .sequenceParameterSet))
        #expect(track.bitDepth == 10)
        #expect(track.configuration?.codec == "avc1.6e001f")
    }

    /// Scaling matrices, picture order count type 1, cropping and an extended SAR all come before the VUI colour:
    /// each has to be stepped over bit-exactly, and the SAR's zero bytes bring emulation prevention bytes.
    @Test func spsFieldsBeforeTheVUIAreSteppedOverExactly() throws {
        var fields = SPSFields(
            profile: 100, scalingLists: true, pictureOrderCountType: 1, cropping: true, extendedSAR: true,
            signal: (true, 1, 16, 1))
        let nal = fields.nal
        #expect(
            nal.count > 4 && nal.indices.dropFirst(2).contains { nal[$0 - 2] == 0 && nal[$0 - 1] == 0 && nal[$0] == 3 })
        let sps = try H264SequenceParameterSet.parse(nal[...])
        #expect(sps.profile == 100 && sps.lumaBitDepth == 8)
        #expect(
            sps.colour
                == VideoColour(primaries: 1, transfer: 16, matrix: 1, isFullRange: true, origin: .sequenceParameterSet))
        fields.profile = 244
        fields.lumaBitDepth = 12
        #expect(try H264SequenceParameterSet.parse(fields.nal[...]).lumaBitDepth == 12)
    }

    @Test func untaggedVideoIsUnspecifiedAndSDR() throws {
        let track = try video(Build.video(children: [Build.avcC(SPSFields().nal)]))
        #expect(track.colour == VideoColour())
        #expect(track.colour.origin == .none && track.colour.transfer == 2)
        #expect(track.colour.videoRange == "SDR" && !track.colour.isHDR)
    }

    /// A record or SPS cut short keeps the codec string; only what it no longer holds is unknown.
    @Test func truncatedSPSLeavesTheCodecAndLosesOnlyTheColour() throws {
        let high10 = SPSFields(profile: 110, lumaBitDepth: 10, signal: (false, 9, 16, 9)).nal
        let track = try video(Build.video(children: [Build.avcC(Array(high10.prefix(6)))]))
        #expect(track.configuration?.codec == "avc1.6e001f")
        #expect(track.colour == VideoColour())
        #expect(track.bitDepth == nil, "High 10 may be 8 or 10 bits: without the SPS the depth is unknown")
        let high = SPSFields(profile: 100, signal: (false, 9, 16, 9)).nal
        #expect(try video(Build.video(children: [Build.avcC(Array(high.prefix(6)))])).bitDepth == 8)
        #expect(throws: MediaParseError.self) { try H264SequenceParameterSet.parse(high.prefix(6)) }
        #expect(throws: MediaParseError.self) { try H264SequenceParameterSet.parse([0x68, 0x00][...]) }
    }

    @Test func colrTooShortForItsCodePointsCountsAsNone() throws {
        let short = Build.box("colr", Array("nclx".utf8) + [0, 9, 0])
        let sps = SPSFields(signal: (false, 1, 1, 1)).nal
        let track = try video(Build.video(children: [Build.avcC(sps), short]))
        #expect(track.colour.origin == .sequenceParameterSet && track.colour.transfer == 1)
    }

    @Test func emulationPreventionBytesAreRemoved() {
        #expect(BitReader.rbsp([0x00, 0x00, 0x03, 0x01, 0x00, 0x00, 0x03, 0x03][...]) == [0, 0, 1, 0, 0, 3])
        #expect(BitReader.rbsp([0x00, 0x03, 0x00][...]) == [0, 3, 0])
    }

    @Test func hevcAndAV1RecordsGiveTheBitDepth() throws {
        let main: [UInt8] = [
            0x01, 0x01, 0x60, 0x00, 0x00, 0x00, 0xB0, 0, 0, 0, 0, 0, 93,
            0xF0, 0x00, 0xFC, 0xFD, 0xF8, 0xF8, 0x00, 0x00, 0x0F, 0x00,
        ]
        var main10 = main
        main10[1] = 0x02
        main10[17] = 0xFA
        main10[18] = 0xFA
        #expect(try CodecConfiguration.hevc("hvc1", main[...]).bitDepth == 8)
        #expect(try CodecConfiguration.hevc("hvc1", main10[...]).bitDepth == 10)
        #expect(try CodecConfiguration.av1([0x81, 0x04, 0x0C, 0x00][...]).bitDepth == 8)
        #expect(try CodecConfiguration.av1([0x81, 0x08, 0x4C, 0x00][...]).bitDepth == 10)
        // Profile 2 with twelve_bit.
        #expect(try CodecConfiguration.av1([0x81, 0x44, 0x60, 0x00][...]).bitDepth == 12)
        let track = try video(
            Build.video(
                format: "hvc1",
                children: [Build.box("hvcC", main10), Build.colour(primaries: 9, transfer: 16, matrix: 9)]))
        #expect(track.bitDepth == 10 && track.colour.isHDR && track.configuration?.codec == "hvc1.2.6.L93.B0")
    }

    /// Real encodes: libx264 and libx265 at 8 and 10 bits, read back from the files FFmpeg's muxer wrote.
    @Test(arguments: ["libx264", "libx265"], [false, true])
    func realEncodesHaveTheirBitDepth(encoder: String, tenBit: Bool) throws {
        let temporary = try TemporaryDirectory()
        var clip = SyntheticVideo(width: 320, height: 180, seconds: 0.3)
        clip.codec = encoder
        clip.tenBit = tenBit
        clip.audio = nil
        let path = temporary.file("clip.mp4")
        try clip.write(to: path)
        let track = try video([UInt8](try Data(contentsOf: URL(fileURLWithPath: path))))
        #expect(track.bitDepth == (tenBit ? 10 : 8), "\(track.configuration?.codec ?? "none")")
        #expect(!track.colour.isHDR)
    }
}
