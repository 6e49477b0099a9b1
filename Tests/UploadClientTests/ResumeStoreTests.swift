import FileSystem
import Foundation
import MediaFixtures
import MediaModel
import TestTraits
import Testing
import Transcode
import UploadClient

@Suite(.offThePool, .timeLimit(.minutes(5))) struct ResumeStoreTests {
    let server = URL(string: "https://reel.test")!

    func entry(_ url: String = "https://reel.test/v1/uploads/u1") -> ResumeStore.Entry {
        ResumeStore.Entry(
            uploadURL: url, server: "https://reel.test", source: "/in/clip.mp4", contentSHA256: "ab", length: 42,
            quality: nil)
    }

    @Test func savesLoadsAndRemovesAnEntry() throws {
        let scratch = try TemporaryDirectory()
        let store = ResumeStore(directory: scratch.file("cache/reel/uploads"))
        let key = try ResumeStore.key(contentSHA256: "ab", server: server, quality: nil)

        #expect(store.load(key) == nil)
        try store.save(entry(), key: key)
        #expect(store.load(key) == entry())
        try store.save(entry("https://reel.test/v1/uploads/u2"), key: key)
        #expect(store.load(key)?.uploadURL == "https://reel.test/v1/uploads/u2")
        // Atomic writes leave no temporary files behind.
        #expect(
            try Directory.entries(of: store.directory).map { String(decoding: $0.name, as: UTF8.self) } == [
                key + ".json"
            ])

        try scratch.write("cache/reel/uploads/\(key).mp4", [1, 2, 3])
        store.remove(key)
        #expect(store.load(key) == nil)
        #expect(!Directory.exists(store.compressedPath(key)))
    }

    @Test func theKeyFollowsContentServerAndTier() throws {
        let base = try ResumeStore.key(contentSHA256: "ab", server: server, quality: nil)
        #expect(base.count == 64)
        #expect(base == (try ResumeStore.key(contentSHA256: "ab", server: server, quality: nil)))
        #expect(base != (try ResumeStore.key(contentSHA256: "ac", server: server, quality: nil)))
        #expect(
            base != (try ResumeStore.key(contentSHA256: "ab", server: URL(string: "https://other.test")!, quality: nil))
        )
        #expect(base != (try ResumeStore.key(contentSHA256: "ab", server: server, quality: .high)))
        #expect(
            (try ResumeStore.key(contentSHA256: "ab", server: server, quality: .low))
                != (try ResumeStore.key(contentSHA256: "ab", server: server, quality: .high)))
    }

    @Test func aCorruptEntryIsDropped() throws {
        let scratch = try TemporaryDirectory()
        let store = ResumeStore(directory: scratch.path)
        let key = try ResumeStore.key(contentSHA256: "ab", server: server, quality: nil)
        try scratch.write(key + ".json", text: "{not json")
        #expect(store.load(key) == nil)
        #expect(!Directory.exists(store.entryPath(key)))
    }

    @Test func anUnwritableDirectoryIsAFailureNamingIt() throws {
        let scratch = try TemporaryDirectory()
        try scratch.write("file", text: "x")
        let store = ResumeStore(directory: scratch.file("file/uploads"))
        let error = #expect(throws: UploadError.self) { try store.save(entry(), key: "k") }
        #expect(error?.kind == .failed(code: "cache_unwritable"))
        #expect(error?.message.contains(scratch.file("file/uploads")) == true)
    }

    @Test func theDirectoryFollowsXDGThenHome() {
        #expect(
            ResumeStore.defaultDirectory(environment: ["XDG_CACHE_HOME": "/x/cache", "HOME": "/home/u"])
                == "/x/cache/reel/uploads")
        #expect(
            ResumeStore.defaultDirectory(environment: ["XDG_CACHE_HOME": "relative", "HOME": "/home/u"])
                == "/home/u/.cache/reel/uploads")
        #expect(ResumeStore.defaultDirectory(environment: ["HOME": "/home/u"]) == "/home/u/.cache/reel/uploads")
        #expect(ResumeStore.defaultDirectory(environment: [:]) == nil)
    }
}
