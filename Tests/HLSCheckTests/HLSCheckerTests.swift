import Foundation
import MediaFixtures
import TestTraits
import Testing
import Transcode

@testable import HLSCheck

/// Real ladders from Reel's transcoder, checked whole and then broken one way at a time.
@Suite(.offThePool, .timeLimit(.minutes(5))) struct HLSCheckerTests {
    let temporary: TemporaryDirectory
    init() throws { temporary = try TemporaryDirectory() }

    @Test func transcodedLadderPassesWithNoFindingAtAll() throws {
        let ladder = try Ladder.make(in: temporary)
        let report = ladder.check()
        #expect(report.passed, "\(report.summary)")
        #expect(report.findings.isEmpty, "\(report.summary)")
        // One I-frame playlist per rung, listed in the master (Apple 6.1).
        let master = try ladder.text("master.m3u8")
        #expect(
            master.split(separator: "\n").filter { $0.hasPrefix("#EXT-X-I-FRAME-STREAM-INF:") }.count
                == ladder.summary.renditions.count)
        #expect(report.variants.count == ladder.summary.renditions.count)
        for (variant, rendition) in zip(report.variants, ladder.summary.renditions) {
            #expect(variant.playlist == rendition.playlist)
            #expect(variant.measuredCodecs == rendition.codecs)
            #expect(variant.measuredResolution == "\(rendition.width)x\(rendition.height)")
            #expect(variant.measuredFrameRate == 30)
            #expect(abs(variant.measuredPeak - rendition.bandwidth) <= 1)
            #expect(abs(variant.measuredAverage - rendition.averageBandwidth) <= 1)
            #expect(variant.segments == rendition.segments)
        }
    }

    @Test func wrongCodecsIsFound() throws {
        let ladder = try Ladder.make(in: temporary)
        let real = ladder.summary.renditions[0].codecs
        try ladder.edit("master.m3u8") {
            $0.replacingOccurrences(of: "CODECS=\"\(real)\"", with: "CODECS=\"avc1.42e01e,mp4a.40.2\"")
        }
        let report = ladder.check(waiving: ["6.1"])
        let found = report.findings("RFC8216 4.3.4.2")
        #expect(found.count == 1, "\(report.summary)")
        #expect(found.first?.severity == .must)
        #expect(found.first?.file == "master.m3u8")
        #expect(found.first?.message.contains("\"\(real)\"") == true)
        #expect(!report.passed)
    }

    @Test func missingCodecsIsFound() throws {
        let ladder = try Ladder.make(in: temporary)
        let real = ladder.summary.renditions[1].codecs
        try ladder.edit("master.m3u8") { $0.replacingOccurrences(of: ",CODECS=\"\(real)\"", with: "") }
        let report = ladder.check(waiving: ["6.1"])
        #expect(report.findings("9.1").map(\.file) == ["master.m3u8"], "\(report.summary)")
        #expect(!report.passed)
    }

    @Test func missingSegmentIsFound() throws {
        let ladder = try Ladder.make(in: temporary)
        try ladder.remove("90p/seg_001.m4s")
        let report = ladder.check()
        let found = report.findings("RFC8216 3")
        // Both playlists that name it say so, once each.
        #expect(found.map(\.file) == ["90p/index.m3u8", "90p/iframes.m3u8"], "\(report.summary)")
        #expect(found.first?.message == "seg_001.m4s does not exist")
        // One fault, one finding per playlist: the missing bytes do not also skew the average or break the decode-time chain.
        #expect(report.findings.filter { !$0.waived }.map(\.rule) == ["RFC8216 3", "RFC8216 3"], "\(report.summary)")
        #expect(!report.passed)
    }

    @Test func lyingBandwidthIsFound() throws {
        let ladder = try Ladder.make(in: temporary)
        let rendition = ladder.summary.renditions[0]
        let lie = rendition.bandwidth * 13 / 10
        try ladder.edit("master.m3u8") {
            $0.replacingOccurrences(
                of: "#EXT-X-STREAM-INF:BANDWIDTH=\(rendition.bandwidth),", with: "#EXT-X-STREAM-INF:BANDWIDTH=\(lie),")
        }
        let report = ladder.check(waiving: ["6.1"])
        let found = report.findings("1.27")
        #expect(found.count == 1, "\(report.summary)")
        #expect(
            found.first?.message.hasPrefix(
                "\(rendition.playlist): BANDWIDTH=\(lie) but the measured peak is \(rendition.bandwidth)") == true)
        #expect(report.findings("1.26").isEmpty)
        #expect(!report.passed)
    }

    @Test func lyingAverageBandwidthIsFound() throws {
        let ladder = try Ladder.make(in: temporary)
        let rendition = ladder.summary.renditions[1]
        try ladder.edit("master.m3u8") {
            $0.replacingOccurrences(
                of: "AVERAGE-BANDWIDTH=\(rendition.averageBandwidth),",
                with: "AVERAGE-BANDWIDTH=\(rendition.averageBandwidth / 2),")
        }
        let report = ladder.check(waiving: ["6.1"])
        #expect(report.findings("1.26").count == 1, "\(report.summary)")
        #expect(!report.passed)
    }

    @Test func segmentThatDoesNotStartWithAnIDRIsFound() throws {
        let ladder = try Ladder.make(in: temporary)
        try turnFirstIDRIntoPlainSlice(ladder, rung: "180p", segment: "seg_001.m4s")
        let report = ladder.check(waiving: ["6.1"])
        let found = report.findings("7.4")
        #expect(found.map(\.file) == ["180p/seg_001.m4s"], "\(report.summary)")
        #expect(found.first?.message.contains("NAL type 1") == true)
        #expect(!report.passed)
    }

    @Test func wrongTargetDurationIsFound() throws {
        let ladder = try Ladder.make(in: temporary)
        try ladder.edit("180p/index.m3u8") {
            $0.replacingOccurrences(of: "#EXT-X-TARGETDURATION:2\n", with: "#EXT-X-TARGETDURATION:1\n")
        }
        let report = ladder.check(waiving: ["6.1"])
        #expect(
            report.findings("RFC8216 4.3.3.1").contains { $0.severity == .must && $0.file == "180p/index.m3u8" },
            "\(report.summary)")
        #expect(report.findings("7.7").contains { $0.file == "180p/index.m3u8" })
        #expect(report.findings("8.2").map(\.file) == ["180p/index.m3u8"])
        #expect(!report.passed)
    }

    @Test func targetDurationLargerThanNeededIsOnlyASHOULD() throws {
        let ladder = try Ladder.make(in: temporary)
        for rung in ["90p", "180p"] {
            try ladder.edit("\(rung)/index.m3u8") {
                $0.replacingOccurrences(of: "#EXT-X-TARGETDURATION:2\n", with: "#EXT-X-TARGETDURATION:6\n")
            }
        }
        let report = ladder.check(waiving: ["6.1"])
        let found = report.findings("RFC8216 4.3.3.1")
        #expect(found.count == 2 && found.allSatisfy { $0.severity == .should }, "\(report.summary)")
        #expect(report.passed)
    }

    @Test func missingEndListIsFound() throws {
        let ladder = try Ladder.make(in: temporary)
        try ladder.edit("90p/index.m3u8") { $0.replacingOccurrences(of: "#EXT-X-ENDLIST\n", with: "") }
        let report = ladder.check(waiving: ["6.1"])
        #expect(report.findings("RFC8216 6.2.1").map(\.file) == ["90p/index.m3u8"], "\(report.summary)")
        #expect(!report.passed)
    }

    @Test func missingPlaylistTypeIsFound() throws {
        let ladder = try Ladder.make(in: temporary)
        try ladder.edit("90p/index.m3u8") { $0.replacingOccurrences(of: "#EXT-X-PLAYLIST-TYPE:VOD\n", with: "") }
        let report = ladder.check(waiving: ["6.1"])
        #expect(report.findings("8.6").map(\.file) == ["90p/index.m3u8"], "\(report.summary)")
    }

    @Test func droppedSegmentBreaksAlignmentAndTimeRange() throws {
        let ladder = try Ladder.make(in: temporary)
        try ladder.edit("180p/index.m3u8") { text in
            var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            let uri = lines.firstIndex(of: "seg_000.m4s")!
            lines.removeSubrange(uri - 1...uri)
            return lines.joined(separator: "\n")
        }
        let report = ladder.check(waiving: ["6.1"])
        #expect(report.findings("8.7").map(\.file) == ["180p/index.m3u8"], "\(report.summary)")
        #expect(report.findings("8.22").map(\.file) == ["180p/index.m3u8"])
        #expect(!report.passed)
    }

    @Test func versionTooLowForTheTagsIsFound() throws {
        let ladder = try Ladder.make(in: temporary)
        try ladder.edit("90p/index.m3u8") {
            $0.replacingOccurrences(of: "#EXT-X-VERSION:7\n", with: "#EXT-X-VERSION:3\n")
        }
        let report = ladder.check(waiving: ["6.1"])
        let found = report.findings("RFC8216 7")
        #expect(found.map(\.file) == ["90p/index.m3u8"], "\(report.summary)")
        #expect(found.first?.message.contains("EXT-X-MAP needs version 6") == true)
    }

    /// Rewrites the first IDR slice NAL unit of a segment's first sample into a non-IDR slice (type 1), leaving
    /// sizes and sample flags as they are.
    func turnFirstIDRIntoPlainSlice(_ ladder: Ladder, rung: String, segment: String) throws {
        let initSegment = try InitSegment.parse(try ladder.bytes("\(rung)/init.mp4"))
        let video = try #require(initSegment.video)
        let lengthSize = try #require(video.configuration?.nalLengthSize)
        var bytes = try ladder.bytes("\(rung)/\(segment)")
        let scan = try SegmentScan.scan(
            LocalFiles(), ladder.path("\(rung)/\(segment)"), offset: 0, length: Int64(bytes.count),
            defaults: [video.id: video.defaults])
        let sample = try #require(scan.runs(of: video.id).first?.samples.first)
        var offset = Int(sample.offset)
        while offset < Int(sample.offset) + Int(sample.size) {
            let length = bytes[offset..<offset + lengthSize].reduce(0) { $0 << 8 | Int($1) }
            let header = offset + lengthSize
            if bytes[header] & 0x1F == 5 {
                bytes[header] = bytes[header] & 0xE0 | 1
                try ladder.write("\(rung)/\(segment)", bytes: bytes)
                return
            }
            offset = header + length
        }
        Issue.record("no IDR NAL unit in the first sample of \(rung)/\(segment)")
    }
}
