import Catalog
import Foundation
import Hummingbird
import HummingbirdTesting
import MediaFixtures
import NIOCore
import SQLiteCatalog
import Testing

@testable import FeedServer

/// gzip for feed pages and playlists (Apple's HLS authoring spec 10.1): only when the client accepts it, with its
/// own strong ETag and `Vary: Accept-Encoding`, and bytes that decompress to exactly the identity body.
@Suite(.timeLimit(.minutes(5))) struct CompressionRoutesTests {
    let rig: ServerRig
    init() throws { rig = try ServerRig() }

    /// gunzip through the system's gzip, a decoder Reel did not write: `gzip -dk` writes the bytes beside the file,
    /// and the test suspends (bounded) while it runs, holding no thread of the concurrency pool.
    static func gunzip(_ bytes: [UInt8]) async throws -> [UInt8] {
        let directory = try TemporaryDirectory()
        let path = directory.file("body.gz")
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        let run = try await ChildProcess.run(["/bin/gzip", "-dk", path], within: .seconds(60))
        try #require(run.status == 0, "gzip -dk: \(run.stderr)")
        return Array(try Data(contentsOf: URL(fileURLWithPath: directory.file("body"))))
    }

    @Test(arguments: [
        ("gzip", true), ("gzip, deflate, br", true), ("br;q=1.0, gzip;q=0.8", true), ("x-gzip", true), ("*", true),
        ("gzip;q=0", false), ("*, gzip;q=0", false), ("deflate, br", false), ("identity", false), ("", false),
        ("GZIP ; q=0.5", true), ("gzip;q=0.000", false), ("*;q=0", false),
    ])
    func acceptEncodingIsReadAsRFC9110Says(header: String, accepts: Bool) {
        #expect(AcceptEncoding.acceptsGzip(header) == accepts, "\(header)")
    }

    @Test func aFeedPageIsGzippedForClientsThatAcceptItAndItsOwnETagRevalidates() async throws {
        try await rig.store.seed(count: 30)
        try await rig.app.test(.router) { client in
            for round in 0..<2 {  // the first request queries, the second is the kept page
                let plain = try await client.execute(uri: "/v1/feed?limit=20", method: .get)
                let zipped = try await client.execute(
                    uri: "/v1/feed?limit=20", method: .get, headers: [.acceptEncoding: "gzip, br"])
                #expect(
                    plain.headers[.contentEncoding] == nil && plain.headers[.vary] == "Accept-Encoding",
                    "round \(round)")
                #expect(zipped.headers[.contentEncoding] == "gzip" && zipped.headers[.vary] == "Accept-Encoding")
                let tag = try #require(zipped.headers[.eTag])
                #expect(tag.hasSuffix(".gz\"") && tag != plain.headers[.eTag])
                #expect(zipped.body.readableBytes < plain.body.readableBytes / 3)
                #expect(
                    try await Self.gunzip(Array(zipped.body.readableBytesView)) == Array(plain.body.readableBytesView))
                let revalidated = try await client.execute(
                    uri: "/v1/feed?limit=20", method: .get,
                    headers: [.acceptEncoding: "gzip", .ifNoneMatch: tag])
                #expect(revalidated.status == .notModified)
                // The identity tag does not validate the gzip representation.
                let other = try await client.execute(
                    uri: "/v1/feed?limit=20", method: .get,
                    headers: [.acceptEncoding: "gzip", .ifNoneMatch: try #require(plain.headers[.eTag])])
                #expect(other.status == .ok)
            }
        }
    }

    @Test func playlistsAreGzippedButSegmentsAndRangesAreNot() async throws {
        let folder = rig.directory.file("library/videos/v1/720p")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let playlist =
            "#EXTM3U\n#EXT-X-VERSION:7\n#EXT-X-TARGETDURATION:4\n"
            + (0..<15).map { "#EXTINF:4.000,\nseg_\($0).m4s\n" }.joined()
            + "#EXT-X-ENDLIST\n"
        try playlist.write(toFile: folder + "/index.m3u8", atomically: true, encoding: .utf8)
        try Data(repeating: 7, count: 4000).write(to: URL(fileURLWithPath: folder + "/seg_0.m4s"))
        try await rig.app.test(.router) { client in
            let zipped = try await client.execute(
                uri: "/media/videos/v1/720p/index.m3u8", method: .get, headers: [.acceptEncoding: "gzip"])
            #expect(
                zipped.status == .ok && zipped.headers[.contentEncoding] == "gzip"
                    && zipped.headers[.vary] == "Accept-Encoding")
            #expect(zipped.headers[.contentType] == "application/vnd.apple.mpegurl")
            #expect(try await Self.gunzip(Array(zipped.body.readableBytesView)) == Array(playlist.utf8))
            let tag = try #require(zipped.headers[.eTag])
            #expect(tag.hasSuffix(".gz\""))
            let revalidated = try await client.execute(
                uri: "/media/videos/v1/720p/index.m3u8", method: .get,
                headers: [.acceptEncoding: "gzip", .ifNoneMatch: tag])
            #expect(revalidated.status == .notModified)

            let ranged = try await client.execute(
                uri: "/media/videos/v1/720p/index.m3u8", method: .get,
                headers: [.acceptEncoding: "gzip", .range: "bytes=0-6"])
            #expect(ranged.status == .partialContent && ranged.headers[.contentEncoding] == nil)
            #expect(String(buffer: ranged.body) == "#EXTM3U")
            let plain = try await client.execute(uri: "/media/videos/v1/720p/index.m3u8", method: .get)
            #expect(plain.headers[.contentEncoding] == nil && String(buffer: plain.body) == playlist)
            let segment = try await client.execute(
                uri: "/media/videos/v1/720p/seg_0.m4s", method: .get, headers: [.acceptEncoding: "gzip"])
            #expect(segment.headers[.contentEncoding] == nil && segment.body.readableBytes == 4000)
        }
    }
}
