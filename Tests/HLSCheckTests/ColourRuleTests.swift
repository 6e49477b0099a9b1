import Foundation
import MediaFixtures
import TestTraits
import Testing

@testable import HLSCheck
@testable import Transcode

/// The colour rules on real ladders from Reel's transcoder, retagged the way a wrong HDR pipeline would tag them,
/// and on presentations built in code where Reel's encoders cannot go (10-bit HDR).
@Suite(.offThePool, .timeLimit(.minutes(10))) struct ColourRuleTests {
    let temporary: TemporaryDirectory
    init() throws { temporary = try TemporaryDirectory() }

    static let rules = ["reel.colour.8bit-hdr", "reel.colour.video-range", "reel.colour.rung"]

    /// What Reel writes today: 8-bit BT.709 video, tagged in the `colr` box and the SPS alike, and SDR in the
    /// master on every variant and I-frame variant.
    @Test func reelLadderIsTaggedBT709AndSaysSDREverywhere() throws {
        let ladder = try Ladder.make(in: temporary)
        for rendition in ladder.summary.renditions {
            #expect(rendition.videoRange == .sdr)
            let folder = (rendition.playlist as NSString).deletingLastPathComponent
            let video = try #require(try InitSegment.parse(ladder.bytes(folder + "/init.mp4")).video)
            #expect(video.colour == VideoColour(primaries: 1, transfer: 1, matrix: 1, origin: .colourBox))
            #expect(video.configuration?.sequenceColour?.sameTags(as: video.colour) == true)
            #expect(video.bitDepth == 8)
        }
        let master = try ladder.text("master.m3u8").split(separator: "\n")
        let variants = master.filter {
            $0.hasPrefix("#EXT-X-STREAM-INF:") || $0.hasPrefix("#EXT-X-I-FRAME-STREAM-INF:")
        }
        #expect(variants.count == 2 * ladder.summary.renditions.count)
        #expect(variants.allSatisfy { $0.contains(",VIDEO-RANGE=SDR") }, "\(master)")
        #expect(master.contains("#EXT-X-VERSION:7"))
        let report = ladder.check()
        #expect(report.findings.isEmpty, "\(report.summary)")
        #expect(report.variants.allSatisfy { $0.videoRange == "SDR" && $0.measuredVideoRange == "SDR" })
        #expect(report.variants.allSatisfy { $0.measuredBitDepth == 8 })
    }

    @Test func eightBitVideoTaggedHLGIsFoundOnceWithItsVideoRange() throws {
        let ladder = try Ladder.make(in: temporary)
        try ladder.retag("90p/init.mp4", primaries: 9, transfer: 18, matrix: 9)
        let report = ladder.check()
        let depth = report.findings("reel.colour.8bit-hdr")
        // Read for the media playlist and the I-frame playlist, reported once.
        #expect(depth.map(\.file) == ["90p/init.mp4"], "\(report.summary)")
        #expect(depth.first?.severity == .must)
        #expect(depth.first?.message.contains("8-bit video") == true)
        #expect(depth.first?.message.contains("transfer 18 (arib-std-b67)") == true)
        #expect(depth.first?.message.contains("expected a 10-bit stream") == true)
        // The master still says SDR, for the variant and its I-frame variant.
        let range = report.findings("reel.colour.video-range")
        #expect(range.map(\.file) == ["master.m3u8", "master.m3u8"], "\(report.summary)")
        #expect(
            range.map { String($0.message.prefix(while: { $0 != ":" })) } == ["90p/index.m3u8", "90p/iframes.m3u8"])
        #expect(range.allSatisfy { $0.message.contains("VIDEO-RANGE=SDR but 90p/init.mp4 has transfer 18") })
        #expect(range.allSatisfy { $0.message.hasSuffix("expected VIDEO-RANGE=HLG") })
        #expect(report.findings("reel.colour.rung").isEmpty)
        #expect(!report.passed)
    }

    @Test func videoRangeThatDisagreesWithTheTransferIsFound() throws {
        let ladder = try Ladder.make(in: temporary)
        try ladder.edit("master.m3u8") {
            $0.replacingOccurrences(of: "VIDEO-RANGE=SDR\n180p/index.m3u8", with: "VIDEO-RANGE=PQ\n180p/index.m3u8")
        }
        var report = ladder.check()
        var found = report.findings("reel.colour.video-range")
        #expect(found.count == 1, "\(report.summary)")
        #expect(
            found.first?.message
                == "180p/index.m3u8: VIDEO-RANGE=PQ but 180p/init.mp4 has transfer 1 (bt709); expected VIDEO-RANGE=SDR")
        #expect(report.findings.count == 1, "\(report.summary)")

        try ladder.edit("master.m3u8") { $0.replacingOccurrences(of: "VIDEO-RANGE=PQ", with: "VIDEO-RANGE=HDR10") }
        report = ladder.check()
        found = report.findings("reel.colour.video-range")
        #expect(found.count == 1, "\(report.summary)")
        #expect(found.first?.message.contains("VIDEO-RANGE=HDR10 is none of SDR, HLG and PQ") == true)
    }

    /// Absent VIDEO-RANGE means SDR: right for SDR video, wrong for PQ video.
    @Test func absentVideoRangeMeansSDR() throws {
        let ladder = try Ladder.make(in: temporary)
        try ladder.edit("master.m3u8") { $0.replacingOccurrences(of: ",VIDEO-RANGE=SDR", with: "") }
        #expect(ladder.check().findings.isEmpty, "\(ladder.check().summary)")

        try ladder.retag("180p/init.mp4", primaries: 9, transfer: 16, matrix: 9)
        let report = ladder.check()
        let found = report.findings("reel.colour.video-range")
        #expect(
            found.map(\.message) == [
                "180p/index.m3u8: no VIDEO-RANGE, which means SDR, but 180p/init.mp4 has transfer 16 (smpte2084); "
                    + "expected VIDEO-RANGE=PQ",
                "180p/iframes.m3u8: no VIDEO-RANGE, which means SDR, but 180p/init.mp4 has transfer 16 (smpte2084); "
                    + "expected VIDEO-RANGE=PQ",
            ], "\(report.summary)")
    }

    /// A future HDR rung sets `videoRange` on its rendition and nothing else: the master writer states it on the
    /// variant and its I-frame variant, and the checker agrees with it; the summary carries it in JSON.
    @Test func hdrRenditionOnlySetsItsVideoRange() throws {
        let ladder = try Ladder.make(in: temporary)
        var renditions = ladder.summary.renditions
        renditions[1].videoRange = .hlg
        try ladder.retag("180p/init.mp4", primaries: 9, transfer: 18, matrix: 9)
        let iFrames = try MasterPlaylistWriter.writeIFramePlaylists(renditions, directory: ladder.directory)
        try ladder.write(
            "master.m3u8", MasterPlaylistWriter.text(renditions, iFrames: iFrames, frameRate: ladder.summary.frameRate))
        let master = try ladder.text("master.m3u8")
        #expect(master.contains(",VIDEO-RANGE=HLG\n180p/index.m3u8\n"), "\(master)")
        #expect(master.contains(",VIDEO-RANGE=HLG,URI=\"180p/iframes.m3u8\""), "\(master)")
        #expect(master.components(separatedBy: "VIDEO-RANGE=SDR").count == 3, "90p and its I-frames: \(master)")
        let report = ladder.check()
        // Reel's encoders make 8-bit video, so the HLG tag is still wrong for it; the VIDEO-RANGE is not.
        #expect(report.findings.map(\.rule) == ["reel.colour.8bit-hdr"], "\(report.summary)")
        #expect(report.variants.map(\.videoRange) == ["SDR", "HLG"])

        let json = try JSONEncoder().encode(renditions[1])
        #expect(String(decoding: json, as: UTF8.self).contains("\"video_range\":\"HLG\""))
        #expect(try JSONDecoder().decode(TranscodeSummary.Rendition.self, from: json).videoRange == .hlg)
        var older = try #require(try JSONSerialization.jsonObject(with: json) as? [String: Any])
        older["video_range"] = nil
        let decoded = try JSONDecoder().decode(
            TranscodeSummary.Rendition.self, from: try JSONSerialization.data(withJSONObject: older))
        #expect(decoded.videoRange == .sdr)
        #expect(decoded.playlist == renditions[1].playlist && decoded.codecs == renditions[1].codecs)
    }

    /// The same rung in H.264 and HEVC (`90p`, `90p-hevc`): alike as Reel makes them, a finding once they differ.
    @Test func oneRungTaggedTwoWaysAcrossCodecsIsFound() throws {
        var preset = Ladder.preset
        preset.rungs = [preset.rungs[0]]
        preset.poster.rung = preset.rungs[0].id
        preset.codecs = [.h264, .hevc]
        let ladder = try Ladder.make(in: temporary, seconds: 3, preset: preset)
        #expect(ladder.summary.renditions.map(\.id) == ["90p", "90p-hevc"])
        let clean = ladder.check()
        #expect(clean.findings.isEmpty, "\(clean.summary)")
        #expect(
            clean.variants.map(\.measuredColour)
                == Array(repeating: VideoColour(primaries: 1, transfer: 1, matrix: 1).description, count: 2))

        try ladder.retag("90p-hevc/init.mp4", primaries: 9, transfer: 1, matrix: 9)
        let report = ladder.check()
        let found = report.findings("reel.colour.rung")
        #expect(found.map(\.file) == ["90p-hevc/init.mp4"], "\(report.summary)")
        #expect(found.first?.severity == .must)
        let message = try #require(found.first?.message)
        #expect(message.hasPrefix("90p-hevc/index.m3u8 (90x160, VIDEO-RANGE SDR) is tagged primaries 9 (bt2020)"))
        #expect(message.contains("but 90p/index.m3u8 of the same rung is tagged primaries 1 (bt709)"))
        #expect(message.hasSuffix("expected the same tags as 90p/init.mp4"))
        // Transfer 1 is SDR, so VIDEO-RANGE=SDR stays right and 8 bits are enough.
        #expect(report.findings.map(\.rule) == ["reel.colour.rung"], "\(report.summary)")
    }

    /// 10-bit HEVC tagged PQ and HLG, with the VIDEO-RANGE each needs: no colour finding. A second variant of the
    /// HLG rung in another colour (the same RESOLUTION and VIDEO-RANGE) is one; a PQ variant at that size is its
    /// own rung.
    @Test func tenBitHDRWithTheRightVideoRangeIsQuiet() throws {
        let root = temporary.file("hdr")
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        func variant(_ name: String, primaries: Int, transfer: Int) throws {
            try FileManager.default.createDirectory(atPath: root + "/" + name, withIntermediateDirectories: true)
            var hvcC: [UInt8] = [
                0x01, 0x02, 0x20, 0x00, 0x00, 0x00, 0x90, 0, 0, 0, 0, 0, 93,
                0xF0, 0x00, 0xFC, 0xFD, 0xFA, 0xFA, 0x00, 0x00, 0x0F, 0x00,
            ]
            hvcC[17] = 0xFA  // bitDepthLumaMinus8 = 2
            let bytes = InitSegmentBuilder.video(
                format: "hvc1",
                children: [
                    InitSegmentBuilder.box("hvcC", hvcC),
                    InitSegmentBuilder.colour(primaries: primaries, transfer: transfer, matrix: 9),
                ])
            try Data(bytes).write(to: URL(fileURLWithPath: root + "/\(name)/init.mp4"))
            try Data(InitSegmentBuilder.box("free", [])).write(to: URL(fileURLWithPath: root + "/\(name)/seg.m4s"))
            let playlist = """
                #EXTM3U
                #EXT-X-VERSION:7
                #EXT-X-TARGETDURATION:2
                #EXT-X-PLAYLIST-TYPE:VOD
                #EXT-X-MAP:URI="init.mp4"
                #EXTINF:2.0,
                seg.m4s
                #EXT-X-ENDLIST

                """
            try Data(playlist.utf8).write(to: URL(fileURLWithPath: root + "/\(name)/index.m3u8"))
        }
        try variant("hlg", primaries: 9, transfer: 18)
        try variant("hlg-other", primaries: 1, transfer: 18)
        try variant("pq", primaries: 9, transfer: 16)
        func master(_ variants: [(name: String, range: String)]) throws -> HLSReport {
            var lines = ["#EXTM3U", "#EXT-X-VERSION:7"]
            for (name, range) in variants {
                lines.append(
                    "#EXT-X-STREAM-INF:BANDWIDTH=1000,CODECS=\"hvc1.2.4.L93.90\",RESOLUTION=180x320,VIDEO-RANGE=\(range)"
                )
                lines.append("\(name)/index.m3u8")
            }
            try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: URL(fileURLWithPath: root + "/master.m3u8"))
            return HLSChecker().check(directory: root)
        }
        let good = try master([("hlg", "HLG"), ("pq", "PQ")])
        // The segments are placeholders, which other rules report; no colour rule has anything to say.
        #expect(!good.findings.isEmpty)
        #expect(good.findings.filter { Self.rules.contains($0.rule) }.isEmpty, "\(good.summary)")
        #expect(good.variants.map(\.measuredBitDepth) == [10, 10])
        #expect(good.variants.map(\.measuredVideoRange) == ["HLG", "PQ"])

        let mixed = try master([("hlg", "HLG"), ("pq", "PQ"), ("hlg-other", "HLG")])
        let found = mixed.findings.filter { Self.rules.contains($0.rule) }
        #expect(found.map(\.rule) == ["reel.colour.rung"], "\(mixed.summary)")
        #expect(found.first?.file == "hlg-other/init.mp4")
        #expect(found.first?.message.contains("but hlg/index.m3u8 of the same rung") == true)
    }
}

extension Ladder {
    /// Rewrites the code points of the `nclx` colour box in an init segment, as a packager that mislabels the
    /// picture would; the sizes of every box stay as they are.
    func retag(_ relative: String, primaries: UInt16, transfer: UInt16, matrix: UInt16) throws {
        var bytes = try self.bytes(relative)
        let marker = Array("colrnclx".utf8)
        guard
            let start = bytes.indices.dropLast(marker.count + 6).first(where: {
                bytes[$0..<$0 + 8].elementsEqual(marker)
            })
        else { throw LadderEditError(file: relative) }
        for (offset, value) in [primaries, transfer, matrix].enumerated() {
            bytes[start + 8 + 2 * offset] = UInt8(value >> 8)
            bytes[start + 9 + 2 * offset] = UInt8(value & 0xFF)
        }
        try write(relative, bytes: bytes)
    }
}
