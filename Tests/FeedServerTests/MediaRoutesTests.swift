import Catalog
import FeedServer
import Foundation
import Hummingbird
import HummingbirdTesting
import MediaFixtures
import MediaStore
import MediaStoreDirectory
import SQLiteCatalog
import Testing

/// `/media/...`: types, caching, validators, ranges, and nothing outside the library's public folders.
@Suite(.timeLimit(.minutes(5))) struct MediaRoutesTests {
    let directory: TemporaryDirectory
    let server: FeedServer
    let segment: [UInt8] = (0..<5000).map { UInt8(truncatingIfNeeded: $0 &* 7) }

    init() throws {
        directory = try TemporaryDirectory()
        let store = SQLiteCatalogEngine(database: try SQLiteCatalogDatabase(path: directory.file("catalog.sqlite")))
        _ = try directory.write("library/videos/v1/master.m3u8", Array("#EXTM3U\n".utf8))
        _ = try directory.write("library/videos/v1/360p/init.mp4", Array(repeating: 1, count: 100))
        _ = try directory.write("library/videos/v1/360p/seg-00001.m4s", segment)
        _ = try directory.write("library/videos/v1/poster.jpg", [0xFF, 0xD8, 0xFF])
        _ = try directory.write("library/videos/v1/poster.webp", Array("RIFF".utf8))
        _ = try directory.write("library/videos/v1/storyboard.webp", Array("RIFF storyboard".utf8))
        _ = try directory.write(
            "library/videos/v1/storyboard.vtt",
            Array("WEBVTT\n\n00:00:00.000 --> 00:00:01.000\nstoryboard.webp#xywh=0,0,160,284\n".utf8))
        _ = try directory.write("library/images/i1.webp", Array("RIFF".utf8))
        _ = try directory.write("library/originals/v1", Array("original upload".utf8))
        _ = try directory.write("library/rejected/r1.reason.json", Array("{}".utf8))
        _ = try directory.write("library/.staging/v2/master.m3u8", Array("#EXTM3U\n".utf8))
        _ = try directory.write("library/videos/v1/.hidden", Array("x".utf8))
        _ = try directory.write("secret.txt", Array("outside the library".utf8))
        let library = directory.file("library")
        try FileManager.default.createSymbolicLink(
            atPath: library + "/videos/v1/escape.m3u8", withDestinationPath: directory.file("secret.txt"))
        try FileManager.default.createSymbolicLink(
            atPath: library + "/videos/outside", withDestinationPath: directory.path)
        try FileManager.default.createSymbolicLink(
            atPath: library + "/videos/origs", withDestinationPath: library + "/originals")
        try FileManager.default.createSymbolicLink(
            atPath: library + "/videos/inside.webp", withDestinationPath: library + "/images/i1.webp")
        server = FeedServer(store: store, media: try .directory(library))
    }

    var app: some ApplicationProtocol { Application(router: server.router()) }

    @Test(arguments: [
        ("videos/v1/master.m3u8", "application/vnd.apple.mpegurl", "public, max-age=10"),
        ("videos/v1/360p/init.mp4", "video/mp4", "public, max-age=31536000, immutable"),
        ("videos/v1/360p/seg-00001.m4s", "video/mp4", "public, max-age=31536000, immutable"),
        ("videos/v1/poster.jpg", "image/jpeg", "public, max-age=31536000, immutable"),
        ("videos/v1/poster.webp", "image/webp", "public, max-age=31536000, immutable"),
        ("videos/v1/storyboard.webp", "image/webp", "public, max-age=31536000, immutable"),
        ("videos/v1/storyboard.vtt", "text/vtt; charset=utf-8", "public, max-age=31536000, immutable"),
        ("images/i1.webp", "image/webp", "public, max-age=31536000, immutable"),
    ])
    func servesLibraryFilesWithTypeCachingAndValidators(path: String, type: String, cache: String) async throws {
        let expected = try Data(contentsOf: URL(fileURLWithPath: directory.file("library/" + path)))
        try await app.test(.router) { client in
            try await client.execute(uri: "/media/" + path, method: .get) { response in
                #expect(response.status == .ok)
                #expect(response.headers[.contentType] == type)
                #expect(response.headers[.cacheControl] == cache)
                #expect(response.headers[.acceptRanges] == "bytes")
                #expect(response.headers[.eTag]?.hasPrefix("\"") == true)
                #expect(response.headers[.lastModified]?.hasSuffix(" GMT") == true)
                #expect(Data(response.body.readableBytesView) == expected)
            }
        }
    }

    @Test func anUnchangedFileIsA304ForItsETag() async throws {
        try await app.test(.router) { client in
            let etag = try #require(
                try await client.execute(uri: "/media/videos/v1/poster.jpg", method: .get).headers[.eTag])
            let again = try await client.execute(
                uri: "/media/videos/v1/poster.jpg", method: .get, headers: [.ifNoneMatch: etag])
            #expect(again.status == .notModified)
            #expect(again.body.readableBytes == 0)
            let other = try await client.execute(
                uri: "/media/videos/v1/poster.jpg", method: .get, headers: [.ifNoneMatch: "\"nope\""])
            #expect(other.status == .ok)
        }
    }

    @Test(arguments: [
        ("bytes=0-99", 0, 99), ("bytes=4900-", 4900, 4999), ("bytes=-10", 4990, 4999),
        ("bytes=100-100", 100, 100), ("bytes=4000-999999", 4000, 4999),
    ])
    func byteRangesAre206WithTheRightBytes(range: String, first: Int, last: Int) async throws {
        try await app.test(.router) { client in
            try await client.execute(uri: "/media/videos/v1/360p/seg-00001.m4s", method: .get, headers: [.range: range])
            { response in
                #expect(response.status == .partialContent, "\(range)")
                #expect(response.headers[.contentRange] == "bytes \(first)-\(last)/5000")
                #expect(Array(response.body.readableBytesView) == Array(segment[first...last]))
            }
        }
    }

    @Test func aRangePastTheEndIs416() async throws {
        try await app.test(.router) { client in
            for range in ["bytes=5000-", "bytes=6000-7000", "bytes=9-3", "bytes=-0"] {
                let response = try await client.execute(
                    uri: "/media/videos/v1/360p/seg-00001.m4s", method: .get, headers: [.range: range])
                #expect(response.status == .rangeNotSatisfiable, "\(range)")
                #expect(response.headers[.contentRange] == "bytes */5000")
            }
        }
    }

    @Test(arguments: [
        "/media/../secret.txt", "/media/videos/../../secret.txt", "/media/%2e%2e/secret.txt",
        "/media/videos/%2e%2e/%2e%2e/secret.txt", "/media/videos/%2E%2E%2F%2E%2E%2Fsecret.txt",
        "/media/videos/..%2f..%2fsecret.txt", "/media//etc/passwd", "/media/%2fetc%2fpasswd",
        "/media/videos/%2fetc%2fpasswd",
        "/media/videos/v1/escape.m3u8", "/media/videos/outside/secret.txt", "/media/videos/origs/v1",
        "/media/originals/v1", "/media/rejected/r1.reason.json", "/media/.staging/v2/master.m3u8",
        "/media/videos/v1/.hidden", "/media/videos/v1", "/media/videos/v1/", "/media/videos/v1/missing.m4s",
        "/media/videos/v1/master.m3u8%00.jpg", "/media/catalog.sqlite", "/media/../catalog.sqlite",
        "/media/videos/v1/master.m3u8/..", "/media/videos/v1%5c..%5c..%5csecret.txt", "/media/", "/media",
    ])
    func nothingOutsideThePublicLibraryIsServed(uri: String) async throws {
        try await app.test(.router) { client in
            let response = try await client.execute(uri: uri, method: .get)
            #expect(response.status == .notFound, "\(uri)")
            #expect(!String(buffer: response.body).contains("outside the library"))
            #expect(!String(buffer: response.body).contains("original upload"))
        }
    }

    @Test func aSymlinkThatStaysInsideThePublicLibraryIsServed() async throws {
        try await app.test(.router) { client in
            let response = try await client.execute(uri: "/media/videos/inside.webp", method: .get)
            #expect(response.status == .ok)
        }
    }

    @Test func headAnswersHeadersWithoutABody() async throws {
        try await app.test(.router) { client in
            let response = try await client.execute(uri: "/media/videos/v1/360p/seg-00001.m4s", method: .head)
            #expect(response.status == .ok)
            #expect(response.headers[.contentLength] == "5000")
            #expect(response.body.readableBytes == 0)
        }
    }
}
