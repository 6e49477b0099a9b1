import FileSystem
import Foundation
import MediaStore
import MediaStoreDirectory
import NIOCore
import Testing

/// What only a directory library does: symlinks, hidden work in progress, and bodies a server can send itself.
@Suite(.timeLimit(.minutes(2))) struct DirectoryMediaStoreTests {
    @Test func aSymlinkLeadingOutOfTheLibraryIsNotAnObject() async throws {
        try await Engine.directory.withStore { store, scratch in
            try writeFile(scratch + "/../../secret", Array("secret".utf8))
            let root = (scratch as NSString).deletingLastPathComponent
            try FileManager.default.createDirectory(atPath: root + "/videos", withIntermediateDirectories: true)
            try FileManager.default.createSymbolicLink(
                atPath: root + "/videos/leak", withDestinationPath: root + "/../secret")
            let key = try MediaKey("videos/leak")
            #expect(try await store.head(key) == nil)
            await #expect(throws: MediaStoreError.notFound(key: "videos/leak")) {
                try await store.get(key, range: nil, ifNoneMatch: nil)
            }
            #expect(try await store.list(prefix: "videos/").isEmpty)
        }
    }

    @Test func stagingAndTemporaryFilesAreNeverListed() async throws {
        try await Engine.directory.withStore { store, scratch in
            try writeFile(scratch + "/job/master.m3u8", Array("#EXTM3U\n".utf8))
            let root = (scratch as NSString).deletingLastPathComponent
            try writeFile(root + "/videos/v/a.m4s.tmp-1-2", [1])
            try writeFile(root + "/videos/v/.hidden", [1])
            #expect(try await store.list(prefix: "").isEmpty)
        }
    }

    @Test func aBodyOffersItsLocalFile() async throws {
        try await Engine.directory.withStore { store, _ in
            let key = try MediaKey("videos/f/seg.m4s")
            try await store.put(
                key, bytes: ByteBuffer(bytes: patternBytes(100)), attributes: .media(named: key.value),
                createOnly: false)
            let read = try await store.get(key, range: .span(first: 10, last: 19), ifNoneMatch: nil)
            let file = try #require(read.body.localFile)
            #expect(file.path.hasSuffix("/videos/f/seg.m4s") && file.offset == 10 && file.count == 10)
        }
    }
}
