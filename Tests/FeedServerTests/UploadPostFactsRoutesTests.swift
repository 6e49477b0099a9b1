import Catalog
import Foundation
import Hummingbird
import HummingbirdTesting
import SQLiteCatalog
import Testing

@testable import FeedServer

/// A post's caption, title and creator through `/v1/uploads` (issue 65): checked when the upload is created, carried
/// to its job, and served, escaped, in the feed and in `/v1/videos/{id}`.
extension UploadRoutesTests {
    static func metadata(_ pairs: [(String, [UInt8])]) -> String {
        (pairs.map { "\($0.0) \(Data($0.1).base64EncodedString())" }).joined(separator: ",")
    }

    @Test func aCaptionTitleAndTheTokensNameReachTheJobAndAreServedEscaped() async throws {
        let bytes = try clip()
        let caption = "At \"the pier\" </script><b>&</b>\nline two 👩‍👩‍👧 مرحبا"
        try await app.test(.router) { client in
            let metadata = Self.metadata([
                ("filename", Array("clip.mp4".utf8)), ("filetype", Array("video/mp4".utf8)),
                ("caption", Array(caption.utf8)), ("title", Array("Pier".utf8)),
            ])
            let location = try await client.execute(
                uri: "/v1/uploads", method: .post,
                headers: headers(nil, [TusHeader.length: String(bytes.count), TusHeader.metadata: metadata])
            ) { response in
                #expect(response.status == .created, "\(String(buffer: response.body))")
                return try #require(response.headers[.location])
            }
            let last = try await patch(client, location, offset: 0, bytes)
            let jobID = String(try #require(last.headers[TusHeader.reelJob]).dropFirst("/v1/jobs/".count))
            let expected = PostFacts(caption: caption, title: "Pier", creator: "phone")
            #expect(try await store.job(id: jobID)?.post == expected, "the creator is the token's name by default")

            let claimed = try #require(try await store.claimNextJob(owner: "w", now: 1, leaseMilliseconds: 60_000))
            try await store.publish(
                PublishedVideo(
                    id: jobID, createdAt: 1, publishedAt: 2, durationMilliseconds: 1_500, width: 320, height: 240,
                    contentHash: "h", source: nil, masterPath: "videos/\(jobID)/master.m3u8",
                    posterJPEGPath: "videos/\(jobID)/poster.jpg", posterWebPPath: "videos/\(jobID)/poster.webp",
                    renditions: [
                        FeedVideo.Rendition(
                            rung: "240p", width: 320, height: 240, bandwidth: 1, averageBandwidth: 1, codecs: "avc1",
                            segments: 1)
                    ], post: claimed.post),
                lease: claimed.lease, now: 3)
            for uri in ["/v1/videos/\(jobID)", "/v1/feed"] {
                try await client.execute(uri: uri, method: .get) { response in
                    #expect(response.status == .ok)
                    let body = String(buffer: response.body)
                    #expect(!body.contains("\n") && body.contains(#"\"the pier\""#), "quotes and line feeds escaped")
                    let object = try JSONSerialization.jsonObject(with: Data(body.utf8)) as? [String: Any]
                    let item = try #require(
                        uri == "/v1/feed" ? (object?["items"] as? [[String: Any]])?.first : object)
                    #expect(item["caption"] as? String == caption)
                    #expect(item["title"] as? String == "Pier")
                    #expect(item["creator"] as? String == "phone")
                }
            }
        }
    }

    /// Each bad field is a 400 that names it and the limit it broke, before a byte of the upload is stored.
    @Test(
        arguments: [
            ("caption", Array(String(repeating: "é", count: 2_201).utf8), "2201 characters; at most 2200"),
            ("caption", Array(String(repeating: "e\u{301}", count: 2_200).utf8), nil),
            (
                "caption", Array(String(repeating: "e" + String(repeating: "\u{301}", count: 10), count: 2_000).utf8),
                "at most 35200"
            ),
            ("caption", [0x61, 0xFF, 0x62], "not valid UTF-8"),
            ("caption", Array("a\u{7}b".utf8), "U+0007"),
            ("caption", Array("a\u{202E}b".utf8), "U+202E"),
            ("title", Array("two\nlines".utf8), "U+000A"),
            ("title", Array(String(repeating: "t", count: 101).utf8), "101 characters; at most 100"),
            ("title", [], "empty"),
            ("creator", Array(String(repeating: "c", count: 65).utf8), "65 characters; at most 64"),
            ("creator", [0xC3], "not valid UTF-8"),
            ("visibility", Array("secret".utf8), "must be one of public, unlisted, private"),
            ("visibility", Array("unlisted".utf8), nil),
        ] as [(String, [UInt8], String?)])
    func aBadFieldIs400NamingItAndItsLimit(field: String, value: [UInt8], says: String?) async throws {
        try await app.test(.router) { client in
            let metadata = Self.metadata([("filename", Array("clip.mp4".utf8)), (field, value)])
            try await client.execute(
                uri: "/v1/uploads", method: .post,
                headers: headers(nil, [TusHeader.length: "1000", TusHeader.metadata: metadata])
            ) { response in
                let body = String(buffer: response.body)
                guard let says else {
                    #expect(response.status == .created, "a value within the rules passes: \(body)")
                    return
                }
                #expect(response.status == .badRequest, "\(body)")
                let error = try JSONSerialization.jsonObject(with: Data(body.utf8)) as? [String: [String: String]]
                #expect(error?["error"]?["code"] == "invalid_metadata")
                #expect(error?["error"]?["field"] == field)
                #expect(error?["error"]?["message"]?.contains(field) == true && body.contains(says), "\(body)")
            }
        }
        if says != nil { #expect(try await store.expiredUploads(now: .max).isEmpty, "nothing was recorded") }
    }
}
