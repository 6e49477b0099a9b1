import FileSystem
import Foundation
import Glibc
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

    /// `list` passes over what cannot be an object; a copy's strict listing stops at it, named, and still leaves
    /// hidden work in progress and everything outside its prefix alone.
    @Test func aStrictListingNamesWhatCannotBeAnObject() async throws {
        try await Engine.directory.withStore { store, scratch in
            let root = (scratch as NSString).deletingLastPathComponent
            for folder in ["images", "originals", "rejected"] {
                try FileManager.default.createDirectory(atPath: root + "/" + folder, withIntermediateDirectories: true)
            }
            try writeFile(root + "/videos/v/seg.m4s", [1])
            try writeFile(root + "/videos/v/.hidden", [1])
            try writeFile(root + "/videos/v/a.m4s.tmp-1-2", [1])
            try FileManager.default.createSymbolicLink(
                atPath: root + "/images/link", withDestinationPath: "/etc/passwd")
            #expect(try await store.listStrictly(prefix: "videos/").map(\.key) == ["videos/v/seg.m4s"])
            await #expect(throws: MediaStoreError.notAnObject(key: "images/link", entry: .symlink)) {
                try await store.listStrictly(prefix: "images/")
            }
            #expect(try await store.list(prefix: "images/").isEmpty)
            let error = await #expect(throws: MediaStoreError.self) { try await store.listStrictly(prefix: "") }
            #expect(error?.description.contains("images/link is a symlink") == true)

            #expect(mkfifo(root + "/originals/pipe", 0o600) == 0)
            await #expect(throws: MediaStoreError.notAnObject(key: "originals/pipe", entry: .special("fifo"))) {
                try await store.listStrictly(prefix: "originals/")
            }
            #expect(try await store.list(prefix: "originals/").isEmpty)

            let name = Array((root + "/rejected/bad-").utf8) + [0xFF, 0]
            let descriptor = name.withUnsafeBufferPointer { bytes in
                bytes.withMemoryRebound(to: CChar.self) { open($0.baseAddress!, O_CREAT | O_WRONLY, 0o600) }
            }
            #expect(descriptor >= 0)
            close(descriptor)
            await #expect(throws: MediaStoreError.notAnObject(key: "rejected/bad-\u{FFFD}", entry: .nameNotUTF8)) {
                try await store.listStrictly(prefix: "rejected/")
            }
            #expect(try await store.list(prefix: "rejected/").isEmpty)
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
