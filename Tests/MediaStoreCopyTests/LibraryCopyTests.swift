import Foundation
import MediaFixtures
import MediaStore
import MediaStoreCopy
import MediaStoreDirectory
import MediaStoreS3
import NIOCore
import Synchronization
import TestServers
import TestTraits
import Testing

/// `reel library copy`'s engine between a directory and SeaweedFS, both ways and each to its own kind: resumed,
/// verified, and never replacing what differs.
@Suite(.offThePool, .timeLimit(.minutes(5))) struct LibraryCopyTests {
    /// A small library: a video's playlists and segments, an image, a 12 MB original (a multipart upload) and the
    /// host-local folders that are never copied.
    static func makeLibrary(_ directory: TemporaryDirectory) throws -> String {
        try directory.write("library/videos/v1/master.m3u8", text: "#EXTM3U\n")
        try directory.write("library/videos/v1/360p/init.mp4", PatternBytes.make(900))
        try directory.write("library/videos/v1/360p/seg_00001.m4s", PatternBytes.make(300_000, seed: 3))
        try directory.write("library/images/i1.webp", PatternBytes.make(5_000, seed: 9))
        try directory.write("library/originals/v1", PatternBytes.make(12 << 20, seed: 1))
        try directory.write("library/.incoming/u1", PatternBytes.make(10))
        try directory.write("library/.staging/s1/x", PatternBytes.make(10))
        try directory.write("library/videos/v1/360p/.seg.tmp", PatternBytes.make(10))
        return directory.file("library")
    }

    static let copied = [
        "images/i1.webp", "originals/v1", "videos/v1/360p/init.mp4", "videos/v1/360p/seg_00001.m4s",
        "videos/v1/master.m3u8",
    ]

    static let libraryBytes: Int64 = 900 + 300_000 + 5_000 + (12 << 20) + 8

    @Test func aLibraryGoesThereAndBackWithTypesAndHashes() async throws {
        try await withS3Store { bucket in
            let directory = try TemporaryDirectory()
            let library = try directoryStore(try Self.makeLibrary(directory))
            let up = LibraryCopy(from: library, to: bucket, scratch: directory.file("scratch-up"))
            let progress = ProgressLog()
            let first = try await up.run { progress.add($0) }
            #expect(first.copied == 5 && first.skipped == 0 && first.bytes == Self.libraryBytes)
            #expect(progress.last?.files == 5 && progress.last?.bytes == progress.last?.totalBytes)
            #expect(try await bucket.list(prefix: "").map(\.key) == Self.copied)
            let playlist = try #require(try await bucket.head(MediaKey("videos/v1/master.m3u8")))
            #expect(
                playlist.contentType == "application/vnd.apple.mpegurl" && playlist.cacheControl == "public, max-age=10"
            )
            let original = try #require(try await bucket.head(MediaKey("originals/v1")))
            #expect(original.cacheControl == "private, no-store" && original.metadata["sha256"]?.count == 64)
            #expect(original.contentType == "application/octet-stream")

            let again = try await up.run()
            #expect(again.copied == 0 && again.skipped == 5)

            let back = try directoryStore(directory.file("back"))
            let down = LibraryCopy(from: bucket, to: back, scratch: directory.file("back/.copy-scratch"))
            let restored = try await down.run()
            #expect(restored.copied == 5 && restored.bytes == Self.libraryBytes)
            for path in Self.copied {
                #expect(
                    FileManager.default.contentsEqual(
                        atPath: library.root + "/" + path, andPath: back.root + "/" + path),
                    "\(path)")
            }
            #expect(!FileManager.default.fileExists(atPath: back.root + "/.incoming"))
            #expect(!FileManager.default.fileExists(atPath: back.root + "/.copy-scratch"), "scratch is cleared")
            #expect(try await down.run().skipped == 5)
        }
    }

    @Test func somethingThatDiffersIsNeverReplaced() async throws {
        try await withS3Store { bucket in
            let directory = try TemporaryDirectory()
            let library = try directoryStore(try Self.makeLibrary(directory))
            _ = try await LibraryCopy(from: library, to: bucket, scratch: directory.file("scratch")).run()
            try directory.write("library/images/i1.webp", PatternBytes.make(5_000, seed: 10))
            await #expect {
                try await LibraryCopy(from: library, to: bucket, scratch: directory.file("scratch")).run()
            } throws: { error in
                let error = error as? LibraryCopyError
                return error?.reason == .differs && error?.description.contains("images/i1.webp") == true
                    && error?.description.contains("nothing was replaced") == true
                    && error?.description.contains(bucket.name) == true
                    && error?.description.contains(library.root) == true
            }
            #expect(
                Array(buffer: try await bucket.contents(of: MediaKey("images/i1.webp")))
                    == PatternBytes.make(5_000, seed: 9))
            await #expect {
                try await LibraryCopy(from: bucket, to: library, scratch: directory.file("scratch")).run()
            } throws: { ($0 as? LibraryCopyError)?.reason == .differs }
            #expect(
                try Array(Data(contentsOf: URL(fileURLWithPath: library.root + "/images/i1.webp")))
                    == PatternBytes.make(5_000, seed: 10))
        }
    }

    @Test func aSymlinkInTheLibraryStopsTheCopyNamed() async throws {
        try await withS3Store { bucket in
            let directory = try TemporaryDirectory()
            let library = try directoryStore(try Self.makeLibrary(directory))
            try FileManager.default.createSymbolicLink(
                atPath: library.root + "/videos/v1/escape", withDestinationPath: "/etc/passwd")
            await #expect {
                try await LibraryCopy(from: library, to: bucket, scratch: directory.file("scratch")).run()
            } throws: { error in
                let error = error as? MediaStoreError
                return error == .notAnObject(key: "videos/v1/escape", entry: .symlink)
                    && error?.description.contains("videos/v1/escape is a symlink") == true
            }
            #expect(try await bucket.list(prefix: "").isEmpty, "nothing is copied before the listing is whole")
        }
    }

    /// An object another tool wrote carries no hash: the copy computes it from the bytes, so it is still verified, and
    /// the next store records it.
    @Test func anObjectWithoutARecordedHashIsHashedFromItsBytes() async throws {
        try await withS3Store { bucket in
            let directory = try TemporaryDirectory()
            let bytes = PatternBytes.make(200_000, seed: 4)
            _ = try await bucket.put(
                try MediaKey("originals/x1"), bytes: ByteBuffer(bytes: bytes), attributes: .private(),
                createOnly: true)
            #expect(try await bucket.head(MediaKey("originals/x1"))?.metadata["sha256"] == nil)
            let back = try directoryStore(directory.file("back"))
            let down = try await LibraryCopy(from: bucket, to: back, scratch: directory.file("scratch")).run()
            #expect(down.copied == 1 && down.bytes == 200_000)
            #expect(try Array(Data(contentsOf: URL(fileURLWithPath: back.root + "/originals/x1"))) == bytes)
            // The same bytes at the destination without a recorded hash: hashed, found equal, skipped.
            #expect(
                try await LibraryCopy(from: back, to: bucket, scratch: directory.file("scratch")).run().skipped == 1)
            // Other bytes of the same size: hashed, found different, refused.
            try directory.write("back/originals/x1", PatternBytes.make(200_000, seed: 5))
            await #expect {
                try await LibraryCopy(from: back, to: bucket, scratch: directory.file("scratch")).run()
            } throws: { ($0 as? LibraryCopyError)?.reason == .differs }
        }
    }

    /// An object whose bytes do not match the hash recorded with it is not copied, and nothing is left behind.
    @Test func anObjectThatDoesNotMatchItsRecordedHashIsNotCopied() async throws {
        try await withS3Store { bucket in
            let directory = try TemporaryDirectory()
            _ = try await bucket.put(
                try MediaKey("originals/x2"), bytes: ByteBuffer(bytes: PatternBytes.make(70_000)),
                attributes: .private(metadata: ["sha256": String(repeating: "0", count: 64)]), createOnly: true)
            let back = try directoryStore(directory.file("back"))
            await #expect {
                try await LibraryCopy(from: bucket, to: back, scratch: back.root + "/.copy-scratch").run()
            } throws: { error in
                let error = error as? LibraryCopyError
                return error?.reason == .damaged && error?.description.contains("originals/x2") == true
                    && error?.isRetryable == false
            }
            #expect(try await back.list(prefix: "").isEmpty)
            #expect(!FileManager.default.fileExists(atPath: back.root + "/.copy-scratch"))
        }
    }

    /// The same code copies a directory into a directory and a bucket into a bucket; the scratch space is cleared.
    @Test func eachEngineCopiesIntoItsOwnKind() async throws {
        let directory = try TemporaryDirectory()
        let library = try directoryStore(try Self.makeLibrary(directory))
        let twin = try directoryStore(directory.file("twin"))
        let local = try await LibraryCopy(from: library, to: twin, scratch: directory.file("scratch")).run()
        #expect(local.copied == 5 && local.bytes == Self.libraryBytes)
        #expect(try await twin.list(prefix: "").map(\.key) == Self.copied)
        try await withS3Store { first in
            _ = try await LibraryCopy(from: twin, to: first, scratch: directory.file("scratch")).run()
            try await withS3Store { second in
                let remote = try await LibraryCopy(from: first, to: second, scratch: directory.file("scratch")).run()
                #expect(remote.copied == 5 && remote.bytes == Self.libraryBytes)
                let original = try #require(try await second.head(MediaKey("originals/v1")))
                #expect(
                    original.metadata["sha256"] == (try await first.head(MediaKey("originals/v1")))?.metadata["sha256"])
                #expect(
                    Array(buffer: try await second.contents(of: MediaKey("originals/v1"), limit: 16 << 20))
                        == PatternBytes.make(12 << 20, seed: 1))
            }
        }
        #expect(!FileManager.default.fileExists(atPath: directory.file("scratch")))
    }

    @Test func objectsKeepTheHeadersTheLibraryServesThemWith() {
        #expect(LibraryCopy.contentType(of: "videos/v1/master.m3u8") == "application/vnd.apple.mpegurl")
        #expect(LibraryCopy.cacheControl(of: "videos/v1/master.m3u8") == "public, max-age=10")
        #expect(LibraryCopy.contentType(of: "images/i1.webp") == "image/webp")
        #expect(LibraryCopy.contentType(of: "originals/v1.m3u8") == "application/octet-stream")
        #expect(LibraryCopy.cacheControl(of: "rejected/v1") == "private, no-store")
    }
}

/// Progress lines a copy reported, for the test to read.
final class ProgressLog: Sendable {
    private let entries = Mutex<[LibraryCopy.Progress]>([])

    func add(_ progress: LibraryCopy.Progress) { entries.withLock { $0.append(progress) } }

    var last: LibraryCopy.Progress? { entries.withLock { $0.last } }
}
