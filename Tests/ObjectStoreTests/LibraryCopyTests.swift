import Foundation
import MediaFixtures
import NIOCore
import ObjectStore
import Synchronization
import TestServers
import TestTraits
import Testing

/// `reel library copy`'s engine against SeaweedFS: there and back, resumed, and never replacing what differs.
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

    @Test func aLibraryGoesThereAndBackWithTypesAndHashes() async throws {
        try await withStore(prefix: "media") { _, client in
            let directory = try TemporaryDirectory()
            let library = try Self.makeLibrary(directory)
            let copy = LibraryCopy(client: client)
            let progress = ProgressLog()
            let first = try await copy.upload(from: library) { progress.add($0) }
            #expect(first.copied == 5 && first.skipped == 0 && first.bytes == 900 + 300_000 + 5_000 + (12 << 20) + 8)
            #expect(progress.last?.files == 5 && progress.last?.bytes == progress.last?.totalBytes)
            #expect(try await client.list(prefix: "").map(\.key) == Self.copied)
            let playlist = try #require(try await client.head(try ObjectKey("videos/v1/master.m3u8")))
            #expect(
                playlist.contentType == "application/vnd.apple.mpegurl" && playlist.cacheControl == "public, max-age=10"
            )
            let original = try #require(try await client.head(try ObjectKey("originals/v1")))
            #expect(original.cacheControl == "private, no-store" && original.metadata["sha256"]?.count == 64)

            let again = try await copy.upload(from: library)
            #expect(again.copied == 0 && again.skipped == 5)

            let back = directory.file("back")
            let restored = try await copy.download(to: back)
            #expect(restored.copied == 5 && restored.unverified == 0)
            for path in Self.copied {
                #expect(
                    FileManager.default.contentsEqual(atPath: library + "/" + path, andPath: back + "/" + path),
                    "\(path)")
            }
            #expect(!FileManager.default.fileExists(atPath: back + "/.incoming"))
            #expect(try await copy.download(to: back).skipped == 5)
        }
    }

    @Test func somethingThatDiffersIsNeverReplaced() async throws {
        try await withStore(prefix: "media") { _, client in
            let directory = try TemporaryDirectory()
            let library = try Self.makeLibrary(directory)
            let copy = LibraryCopy(client: client)
            try await copy.upload(from: library)
            try directory.write("library/images/i1.webp", PatternBytes.make(5_000, seed: 10))
            await #expect {
                try await copy.upload(from: library)
            } throws: { error in
                let error = error as? ObjectStoreError
                return error?.reason == .preconditionFailed && error?.description.contains("images/i1.webp") == true
                    && error?.description.contains("nothing was replaced") == true
            }
            #expect(
                try await client.get(try ObjectKey("images/i1.webp")) == .init(bytes: PatternBytes.make(5_000, seed: 9))
            )
            await #expect {
                try await copy.download(to: library)
            } throws: { ($0 as? ObjectStoreError)?.reason == .preconditionFailed }
            #expect(
                try Array(Data(contentsOf: URL(fileURLWithPath: library + "/images/i1.webp")))
                    == PatternBytes.make(5_000, seed: 10))
        }
    }

    @Test func aSymlinkInTheLibraryStopsTheCopyNamed() async throws {
        try await withStore(prefix: "media") { _, client in
            let directory = try TemporaryDirectory()
            let library = try Self.makeLibrary(directory)
            try FileManager.default.createSymbolicLink(
                atPath: library + "/videos/v1/escape", withDestinationPath: "/etc/passwd")
            await #expect {
                try await LibraryCopy(client: client).upload(from: library)
            } throws: { error in
                let error = error as? ObjectStoreError
                return error?.reason == .badKey && error?.description.contains("videos/v1/escape is a symlink") == true
            }
        }
    }
}

/// Progress lines a copy reported, for the test to read.
final class ProgressLog: Sendable {
    private let entries = Mutex<[LibraryCopy.Progress]>([])

    func add(_ progress: LibraryCopy.Progress) { entries.withLock { $0.append(progress) } }

    var last: LibraryCopy.Progress? { entries.withLock { $0.last } }
}
