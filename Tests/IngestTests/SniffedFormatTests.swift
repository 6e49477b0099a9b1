import Ingest
import MediaModel
import TestTraits
import Testing

@Suite(.offThePool, .timeLimit(.minutes(5))) struct SniffedFormatTests {
    private func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }

    @Test func recognisesUploadContainers() {
        #expect(SniffedFormat.sniff([0, 0, 0, 0x20] + bytes("ftypisom") + [UInt8](repeating: 0, count: 20)) == .mp4)
        #expect(SniffedFormat.sniff([0, 0, 0, 0x20] + bytes("ftypqt  ")) == .mp4)
        #expect(SniffedFormat.sniff([0, 0, 0, 0x20] + bytes("ftypheic")) == .heif)
        #expect(SniffedFormat.sniff([0x1A, 0x45, 0xDF, 0xA3, 0x01]) == .matroska)
        #expect(SniffedFormat.sniff([0xFF, 0xD8, 0xFF, 0xE0]) == .jpeg)
        #expect(SniffedFormat.sniff([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) == .png)
        #expect(SniffedFormat.sniff(bytes("RIFF\u{10}\0\0\0WEBPVP8 ")) == .webp)
        #expect(SniffedFormat.sniff(bytes("GIF89a")) == .gif)
        #expect(SniffedFormat.sniff(bytes("II*\0")) == .tiff)
    }

    @Test func refusesPlaylistsAndVectorImagesWhateverTheirName() {
        #expect(SniffedFormat.sniff(bytes("#EXTM3U\n#EXT-X-VERSION:3\n")) == .forbidden("hls_playlist"))
        #expect(SniffedFormat.sniff([0xEF, 0xBB, 0xBF] + bytes("#EXTM3U\n")) == .forbidden("hls_playlist"))
        #expect(SniffedFormat.sniff(bytes("ffconcat version 1.0\nfile /etc/passwd\n")) == .forbidden("ffconcat"))
        #expect(
            SniffedFormat.sniff(bytes("<?xml version=\"1.0\"?><svg xmlns=\"http://www.w3.org/2000/svg\"/>"))
                == .forbidden("svg"))
        #expect(
            SniffedFormat.sniff(bytes("<?xml version=\"1.0\"?>\n<MPD xmlns=\"urn:mpeg:dash\">"))
                == .forbidden("dash_manifest"))
        #expect(SniffedFormat.sniff(bytes("v=0\no=- 0 0 IN IP4 127.0.0.1\n")) == .forbidden("sdp"))
    }

    @Test func refusesOtherFormatsAsUnsupported() {
        #expect(SniffedFormat.sniff(bytes("RIFF\0\0\0\0AVI LIST")) == .unsupported("avi"))
        #expect(SniffedFormat.sniff(bytes("hello, this is a text file\n")) == .unsupported("text"))
        #expect(SniffedFormat.sniff([0x00, 0x01, 0x02, 0x9F, 0x00, 0xEE, 0x07]) == .unknown)
    }
}
