import Catalog
import Foundation
import Hummingbird
import HummingbirdTesting
import MediaFixtures
import MediaStore
import MediaStoreDirectory
import SQLiteCatalog
import Testing

@testable import FeedServer

#if canImport(Glibc)
import Glibc
#endif

/// What the library resolves and stats (on NIO's thread pool) before `/media/` serves a byte: symlinks are judged
/// by where they land, only regular files are served, and the validator is built from the file's own status.
@Suite(.timeLimit(.minutes(5))) struct MediaLibraryTests {
    let directory: TemporaryDirectory
    let store: DirectoryMediaStore

    init() throws {
        directory = try TemporaryDirectory()
        _ = try directory.write("library/videos/v1/360p/seg-00001.m4s", Array(repeating: 9, count: 300))
        _ = try directory.write("library/originals/v1", Array("original upload".utf8))
        _ = try directory.write("library/rejected/r1.reason.json", Array("{}".utf8))
        let videos = directory.file("library/videos")
        // Relative links, as a careless `ln -s` inside the library would make them.
        try FileManager.default.createSymbolicLink(
            atPath: videos + "/v1/original.mp4", withDestinationPath: "../../originals/v1")
        try FileManager.default.createSymbolicLink(
            atPath: videos + "/v1/reason.json", withDestinationPath: "../../rejected/r1.reason.json")
        try FileManager.default.createSymbolicLink(atPath: videos + "/v1/gone.m4s", withDestinationPath: "missing.m4s")
        try FileManager.default.createSymbolicLink(atPath: videos + "/v1/loop.m4s", withDestinationPath: "loop.m4s")
        try FileManager.default.createSymbolicLink(atPath: videos + "/v2", withDestinationPath: "v1")
        store = try DirectoryMediaStore(root: directory.file("library"), linkableFolders: MediaLibrary.publicRoots)
    }

    func get(_ uri: String) async throws -> TestResponse {
        let server = FeedServer(
            store: SQLiteCatalogEngine(database: try SQLiteCatalogDatabase(path: directory.file("catalog.sqlite"))),
            media: MediaServing(store: store)
        )
        return try await Application(router: server.router()).test(.router) { client in
            try await client.execute(uri: uri, method: .get)
        }
    }

    @Test(arguments: ["videos/v1/original.mp4", "videos/v1/reason.json", "videos/v1/gone.m4s", "videos/v1/loop.m4s"])
    func aSymlinkToAPrivateFolderOrToNothingIsA404(path: String) async throws {
        let response = try await get("/media/" + path)
        #expect(response.status == .notFound)
        #expect(!String(buffer: response.body).contains("original upload"))
        #expect(try await store.head(MediaKey(path)) == nil)
    }

    /// Split by `Character`, a '/' before a combining mark was no separator: `videos//\u{301}x` passed the name
    /// checks with an empty component and a slash inside a name (the media-path fuzz target's first mutations).
    @Test(arguments: [
        "videos//\u{301}v1/360p", "videos/v1/\u{301}../x", "videos/.\u{301}v1/x", "videos/v1\u{301}/../x",
    ])
    func aSlashOrDotBesideACombiningMarkIsStillSeen(path: String) {
        let relative = MediaLibrary.publicRelativePath(path[...])
        if path == "videos/v1/\u{301}../x" {
            // "\u{301}.." is a plain name, not "..": a file system sees it as one.
            #expect(relative == path)
        } else {
            #expect(relative == nil, "\(path.debugDescription) was let through")
        }
    }

    @Test func aSymlinkedFolderThatStaysPublicIsServedFromItsTarget() async throws {
        let read = try await store.get(MediaKey("videos/v2/360p/seg-00001.m4s"), range: nil, ifNoneMatch: nil)
        #expect(read.body.localFile?.path == store.root + "/videos/v1/360p/seg-00001.m4s")
    }

    @Test func aFifoIsA404AndNoRequestWaitsForAWriter() async throws {
        #expect(mkfifo(directory.file("library/videos/v1/live.m4s"), 0o600) == 0)
        let response = try await get("/media/videos/v1/live.m4s")
        #expect(response.status == .notFound)
    }

    @Test func theETagIsSizeMicrosecondsAndInodeInHexAndLastModifiedIsTheSecond() async throws {
        let path = directory.file("library/videos/v1/360p/seg-00001.m4s")
        try FileManager.default.setAttributes(
            [.modificationDate: Date(timeIntervalSince1970: 1_700_000_000.123456)], ofItemAtPath: path)
        let inode = try #require(try FileManager.default.attributesOfItem(atPath: path)[.systemFileNumber] as? NSNumber)
            .uint64Value

        let response = try await get("/media/videos/v1/360p/seg-00001.m4s")
        #expect(
            response.headers[.eTag] == "\"12c-\(String(1_700_000_000_123_456, radix: 16))-\(String(inode, radix: 16))\""
        )
        #expect(response.headers[.lastModified] == "Tue, 14 Nov 2023 22:13:20 GMT")
    }
}
