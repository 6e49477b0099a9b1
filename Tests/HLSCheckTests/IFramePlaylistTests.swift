import Foundation
import MediaFixtures
import TestTraits
import Testing
import Transcode

@testable import HLSCheck

/// I-frame playlists written by hand into a real ladder, in place of the one Reel wrote: one entry per segment, the
/// byte range running from the segment's 'moof' to the end of its first (IDR) sample. Reel's own must be the same.
@Suite(.offThePool, .timeLimit(.minutes(5))) struct IFramePlaylistTests {
    let temporary: TemporaryDirectory
    init() throws { temporary = try TemporaryDirectory() }

    struct Entry {
        var segment: String
        var duration: Double
        var range: MediaPlaylist.ByteRange
        /// Where the IDR sample's bytes start.
        var sampleOffset: Int64
    }

    @Test func correctIFramePlaylistPassesWithoutWaivers() throws {
        let ladder = try Ladder.make(in: temporary)
        let entries = try iFrameEntries(ladder, rung: "180p")
        #expect(entries.count == ladder.summary.renditions[1].segments)
        try install(ladder, rung: "180p", entries)
        let report = ladder.check()
        #expect(report.passed, "\(report.summary)")
        #expect(report.findings.isEmpty, "\(report.summary)")
    }

    @Test func reelWritesTheSameEntriesAsTheyAreWorkedOutHere() throws {
        let ladder = try Ladder.make(in: temporary)
        for rendition in ladder.summary.renditions {
            let entries = try iFrameEntries(ladder, rung: rendition.id)
            let written = MediaPlaylist(Playlist(text: try ladder.text("\(rendition.id)/iframes.m3u8")))
            #expect(written.iFramesOnly && written.hasEndList)
            #expect(written.segments.map(\.uri) == entries.map(\.segment))
            #expect(written.segments.map(\.byteRange) == entries.map(\.range))
            #expect(zip(written.segments, entries).allSatisfy { abs($0.duration - $1.duration) < 0.0005 })
        }
    }

    @Test func rangeThatStartsInsideTheMediaDataIsFound() throws {
        let ladder = try Ladder.make(in: temporary)
        var entries = try iFrameEntries(ladder, rung: "180p")
        let moved = entries[1].sampleOffset
        entries[1].range = MediaPlaylist.ByteRange(length: entries[1].range.end - moved, offset: moved)
        try install(ladder, rung: "180p", entries)
        let report = ladder.check()
        let found = report.findings("6.10")
        #expect(found.map(\.file) == ["180p/iframes.m3u8"], "\(report.summary)")
        #expect(found.first?.message.hasPrefix("\(entries[1].segment) \(entries[1].range.length)@\(moved)") == true)
        #expect(!report.passed)
    }

    @Test func rangeThatCutsTheIFrameShortIsFound() throws {
        let ladder = try Ladder.make(in: temporary)
        var entries = try iFrameEntries(ladder, rung: "180p")
        entries[0].range.length -= 100
        try install(ladder, rung: "180p", entries)
        let report = ladder.check()
        let found = report.findings("RFC8216 4.3.3.6")
        #expect(found.map(\.file) == ["180p/iframes.m3u8"], "\(report.summary)")
        #expect(found.first?.message.contains("are not all in the range") == true)
        #expect(!report.passed)
    }

    @Test func rangePastTheEndOfTheSegmentIsFound() throws {
        let ladder = try Ladder.make(in: temporary)
        var entries = try iFrameEntries(ladder, rung: "180p")
        let size = try ladder.bytes("180p/" + entries[0].segment).count
        entries[0].range = MediaPlaylist.ByteRange(length: 1000, offset: Int64(size) - 10)
        try install(ladder, rung: "180p", entries)
        let report = ladder.check()
        #expect(report.findings("RFC8216 4.3.2.2").map(\.file) == ["180p/iframes.m3u8"], "\(report.summary)")
    }

    /// Each segment's first moof and first video sample, found by reading the boxes.
    func iFrameEntries(_ ladder: Ladder, rung: String) throws -> [Entry] {
        let initSegment = try InitSegment.parse(try ladder.bytes("\(rung)/init.mp4"))
        let video = try #require(initSegment.video)
        let media = MediaPlaylist(Playlist(text: try ladder.text("\(rung)/index.m3u8")))
        return try media.segments.map { segment in
            let path = ladder.path("\(rung)/\(segment.uri)")
            let size = try ladder.bytes("\(rung)/\(segment.uri)").count
            let scan = try SegmentScan.scan(
                LocalFiles(), path, offset: 0, length: Int64(size), defaults: [video.id: video.defaults])
            let fragment = try #require(scan.fragments.first)
            let sample = try #require(fragment.tracks.first { $0.trackID == video.id }?.samples.first)
            let end = sample.offset + Int64(sample.size)
            return Entry(
                segment: segment.uri, duration: segment.duration,
                range: .init(length: end - fragment.start, offset: fragment.start), sampleOffset: sample.offset)
        }
    }

    /// Writes `rung/iframes.m3u8` and lists it in the master with the bandwidth its entries measure.
    func install(_ ladder: Ladder, rung: String, _ entries: [Entry]) throws {
        var lines = [
            "#EXTM3U", "#EXT-X-VERSION:7", "#EXT-X-TARGETDURATION:2", "#EXT-X-MEDIA-SEQUENCE:0",
            "#EXT-X-PLAYLIST-TYPE:VOD", "#EXT-X-I-FRAMES-ONLY", "#EXT-X-MAP:URI=\"init.mp4\"",
        ]
        for entry in entries {
            lines += [
                "#EXTINF:\(entry.duration),", "#EXT-X-BYTERANGE:\(entry.range.length)@\(entry.range.offset)",
                entry.segment,
            ]
        }
        lines.append("#EXT-X-ENDLIST")
        try ladder.write("\(rung)/iframes.m3u8", lines.joined(separator: "\n") + "\n")
        let peak = entries.map { Double($0.range.length * 8) / $0.duration }.max() ?? 0
        let rendition = try #require(ladder.summary.renditions.first { $0.id == rung })
        let videoCodec = rendition.codecs.split(separator: ",")[0]
        let master =
            try ladder.text("master.m3u8").split(separator: "\n").filter {
                !$0.contains("URI=\"\(rung)/iframes.m3u8\"")
            }
            .joined(separator: "\n") + "\n"
        try ladder.write(
            "master.m3u8",
            master + "#EXT-X-I-FRAME-STREAM-INF:BANDWIDTH=\(Int(peak.rounded(.up))),"
                + "CODECS=\"\(videoCodec)\",RESOLUTION=\(rendition.width)x\(rendition.height),URI=\"\(rung)/iframes.m3u8\"\n"
        )
    }
}
