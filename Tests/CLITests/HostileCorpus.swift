import Foundation
import MediaFixtures

/// The foundation's hostile uploads (issue 11): playlists that would read local files or fetch `url` if libav were
/// let to open them, indirection formats, an SVG, a pixel flood and garbage behind a valid header.
enum HostileCorpus {
    /// The files, named as an uploader would; `secret` is a path the playlists point at.
    static func files(url: String, secret: String) -> [(name: String, bytes: [UInt8])] {
        [
            (
                "hls-local.mp4",
                Array(
                    "#EXTM3U\n#EXT-X-TARGETDURATION:2\n#EXTINF:2.0,\n\(secret)\n#EXTINF:2.0,\n../secret.ts\n#EXT-X-ENDLIST\n"
                        .utf8)
            ),
            (
                "hls-ssrf.mp4",
                Array(
                    "#EXTM3U\n#EXT-X-TARGETDURATION:2\n#EXT-X-MAP:URI=\"\(url)/init.mp4\"\n#EXTINF:2.0,\n\(url)/a.ts\n#EXT-X-ENDLIST\n"
                        .utf8)
            ),
            ("hls-bom.mov", [0xEF, 0xBB, 0xBF] + Array("#EXTM3U\n#EXTINF:1,\n\(url)/b.ts\n".utf8)),
            (
                "dash.mp4",
                Array(
                    "<?xml version=\"1.0\"?><MPD xmlns=\"urn:mpeg:dash:schema:mpd:2011\"><BaseURL>\(url)/</BaseURL><Period><AdaptationSet><Representation id=\"1\" bandwidth=\"1\"><BaseURL>v.mp4</BaseURL></Representation></AdaptationSet></Period></MPD>"
                        .utf8)
            ),
            ("concat.mp4", Array("ffconcat version 1.0\nfile '\(secret)'\nfile '\(url)/c.mp4'\n".utf8)),
            (
                "image.svg.png",
                Array(
                    "<svg xmlns=\"http://www.w3.org/2000/svg\" xmlns:xlink=\"http://www.w3.org/1999/xlink\"><image xlink:href=\"\(url)/x.png\"/><image xlink:href=\"file://\(secret)\"/></svg>"
                        .utf8)
            ),
            (
                "sdp.mp4",
                Array(
                    "v=0\no=- 0 0 IN IP4 127.0.0.1\ns=x\nc=IN IP4 127.0.0.1\nt=0 0\nm=video \(url.split(separator: ":").last ?? "9") RTP/AVP 96\n"
                        .utf8)
            ),
            ("bomb.png", SyntheticImage.pngBomb(width: 16000, height: 16000)),
            (
                "ftyp-garbage.mp4",
                [0, 0, 0, 0x18] + Array("ftypisom".utf8) + [0, 0, 2, 0] + Array("isomiso2".utf8)
                    + (0..<20000).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) }
            ),
        ]
    }

    /// The fuzzers' media seeds and regressions (Fuzz/Corpus/admission, image-header and their Regressions): real
    /// clips and pictures of every sniffed format, truncated heads, zero sizes, broken EXIF. One copy of each
    /// distinct file, named after its folder.
    static func fuzzMedia() throws -> [(name: String, bytes: [UInt8])] {
        let fuzz = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Fuzz")
        var seen = Set<Data>()
        var files: [(name: String, bytes: [UInt8])] = []
        for folder in ["Corpus/admission", "Corpus/image-header", "Regressions/admission", "Regressions/image-header"] {
            let directory = fuzz.appendingPathComponent(folder)
            for name in try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted() {
                let data = try Data(contentsOf: directory.appendingPathComponent(name))
                // An identical upload would be answered as a duplicate of whichever came first.
                guard seen.insert(data).inserted else { continue }
                files.append((folder.replacingOccurrences(of: "/", with: "-") + "-" + name, Array(data)))
            }
        }
        return files
    }
}
