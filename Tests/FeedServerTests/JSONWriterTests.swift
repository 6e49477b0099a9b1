import Catalog
import Foundation
import SQLiteCatalog
import Testing

@testable import FeedServer

@Suite(.timeLimit(.minutes(5))) struct JSONWriterTests {
    @Test(arguments: [
        "plain", "quote \" and \\ backslash", "new\nline\ttab\r", "\u{0}\u{1}\u{1F}\u{7F}", "日本 😂 café",
        "%d $(rm -rf) \u{202E}",
    ])
    func stringsRoundTripThroughAJSONParser(text: String) throws {
        var json = JSONWriter()
        json.object { json in
            json.key("s")
            json.string(text)
            json.key("n")
            json.string(nil)
        }
        let parsed = try #require(try JSONSerialization.jsonObject(with: Data(json.bytes)) as? [String: Any])
        #expect(parsed["s"] as? String == text)
        #expect(parsed["n"] is NSNull)
    }

    @Test(arguments: [
        (15_002, "15.002"), (15_000, "15"), (15_100, "15.1"), (999, "0.999"), (0, "0"), (-1_500, "-1.5"),
        (-500, "-0.5"),
    ])
    func millisecondsAreExactDecimals(value: Int, text: String) {
        var json = JSONWriter()
        json.milliseconds(asSeconds: value)
        #expect(String(decoding: json.bytes, as: UTF8.self) == text)
    }

    @Test(arguments: [
        (Int64(0), "1970-01-01T00:00:00.000Z"), (1_700_000_002_345, "2023-11-14T22:13:22.345Z"),
        (-1, "1969-12-31T23:59:59.999Z"), (4_102_444_800_000, "2100-01-01T00:00:00.000Z"),
    ])
    func timestampsAreRFC3339UTC(milliseconds: Int64, text: String) {
        var json = JSONWriter()
        json.timestamp(milliseconds: milliseconds)
        #expect(String(decoding: json.bytes, as: UTF8.self) == "\"\(text)\"")
    }

    @Test func mediaURLsPercentEncodeEverythingButUnreservedAndSlash() throws {
        let cdn = try MediaBaseURL("https://cdn.example.com/reel")
        var json = JSONWriter()
        json.array { json in
            json.mediaURL(base: .default, "videos/a b/ü?#%.m3u8")
            json.mediaURL(base: .default, nil)
            json.mediaURL(base: cdn, "videos/a b/x.m3u8")
        }
        #expect(
            String(decoding: json.bytes, as: UTF8.self)
                == #"["/media/videos/a%20b/%C3%BC%3F%23%25.m3u8",null,"https://cdn.example.com/reel/videos/a%20b/x.m3u8"]"#
        )
    }
}
