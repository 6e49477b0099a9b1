import TestTraits
import Testing

@testable import HLSCheck

/// Playlist syntax the checker relies on.
@Suite(.offThePool, .timeLimit(.minutes(5))) struct PlaylistTests {
    @Test func quotedAttributeValuesKeepTheirCommas() {
        let list = AttributeList(
            #"BANDWIDTH=651406,CODECS="avc1.64001e,mp4a.40.2",RESOLUTION=360x640,FRAME-RATE=30.000"#)
        #expect(list.integer("BANDWIDTH") == 651_406)
        #expect(list.quoted("CODECS") == "avc1.64001e,mp4a.40.2")
        #expect(list.resolution("RESOLUTION")! == (360, 640))
        #expect(list.decimal("FRAME-RATE") == 30)
        #expect(list.duplicates.isEmpty)
    }

    @Test func byteRangeWithoutOffsetContinuesThePreviousRange() {
        let text = """
            #EXTM3U
            #EXT-X-VERSION:4
            #EXT-X-TARGETDURATION:4
            #EXTINF:4.0,
            #EXT-X-BYTERANGE:1000@24
            media.mp4
            #EXTINF:4.0,
            #EXT-X-BYTERANGE:500
            media.mp4
            #EXT-X-ENDLIST
            """
        let media = MediaPlaylist(Playlist(text: text))
        #expect(media.segments.map(\.byteRange) == [.init(length: 1000, offset: 24), .init(length: 500, offset: 1024)])
        #expect(media.problems.isEmpty)
        #expect(VersionNeed.highest(media.versionNeeds).version == 4)
    }

    /// Seen writing the playlist fuzz target's contract: Swift holds CRLF as one Character, so splitting on "\n" left a CRLF
    /// playlist as one line, without its header.
    @Test func crlfLinesAreLinesAsLFOnesAre() {
        let text = "#EXTM3U\r\n#EXT-X-STREAM-INF:BANDWIDTH=1\r\na.m3u8\r\n\r\n"
        let playlist = Playlist(text: text)
        #expect(playlist.hasHeader && playlist.isMaster)
        #expect(playlist.lines.map(\.text) == ["#EXTM3U", "#EXT-X-STREAM-INF:BANDWIDTH=1", "a.m3u8"])
        #expect(playlist.lines.map(\.number) == [1, 2, 3])
        #expect(Playlist(text: "#EXTM3U\n#EXTINF:1,\r\na.ts").lines.map(\.text) == ["#EXTM3U", "#EXTINF:1,", "a.ts"])
    }

    /// `Double(_:)` reads its text as a C string, so an EXTINF of `4.0` then a NUL and junk was a 4 s segment
    /// (docs/quirks.md, "`Double(text)` stops at a NUL").
    @Test func aNumberWithANULInsideIsNotANumber() {
        let text = "#EXTM3U\n#EXT-X-TARGETDURATION:4\n#EXTINF:4.0\u{0}junk,\na.ts\n#EXTINF:4.0,\nb.ts\n#EXT-X-ENDLIST\n"
        let media = MediaPlaylist(Playlist(text: text))
        #expect(media.segments.map(\.duration) == [0, 4])
        #expect(media.problems.map(\.line) == [3])
        #expect(media.problems.first?.message == #"EXTINF duration '4.0\0junk' is not a number"#)
        #expect(AttributeList("FRAME-RATE=30.000\u{0}5").decimal("FRAME-RATE") == nil)
        #expect(AttributeList("FRAME-RATE=29.970").decimal("FRAME-RATE") == 29.97)
        #expect(AttributeList("FRAME-RATE=").decimal("FRAME-RATE") == nil)
    }

    @Test func masterAndMediaAreToldApart() {
        #expect(Playlist(text: "#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=1\na.m3u8\n").isMaster)
        #expect(!Playlist(text: "#EXTM3U\n#EXTINF:1,\na.ts\n").isMaster)
        #expect(!Playlist(text: "EXTM3U\n").hasHeader)
    }
}
