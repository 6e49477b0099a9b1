import Foundation
import MediaFixtures
import MediaModel
import NIOCore
import ObjectStore
import SigV4
import TestServers
import TestTraits
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// `reel serve --library s3://... --media-cache-mb N`: what a server has fetched whole it answers from memory (ranges,
/// validators, HEAD), also while the store is away; what is too large to hold is streamed and not held; a changed
/// playlist shows once its ten seconds are up; with 0 every request goes to the store.
@Suite(.offThePool, .timeLimit(.minutes(10))) struct MediaCacheFromObjectStoreTests {
    typealias Fetch = ServeFromObjectStoreTests

    @Test func heldObjectsAreAnsweredFromMemoryAndLargeOnesStreamed() async throws {
        let directory = try TemporaryDirectory()
        let store = try await SeaweedTestServer()
        let prefix = "cache"
        let s3 = S3Client(
            location: try S3Location(parsing: store.libraryURL(prefix: prefix)),
            credentials: SigV4Credentials(accessKeyID: store.accessKeyID, secretAccessKey: store.secretAccessKey))
        let segment = PatternBytes.make(300_000, seed: 1)
        let large = PatternBytes.make(700_000, seed: 2)
        func put(_ key: String, _ bytes: [UInt8]) async throws {
            let type = MediaPolicy.contentType(forName: key[...])
            try await s3.put(
                try ObjectKey(key), bytes: ByteBuffer(bytes: bytes), contentType: type,
                cacheControl: MediaPolicy.cacheControl(forContentType: type))
        }
        do {
            try await put("videos/v1/seg.m4s", segment)
            try await put("videos/v1/large.m4s", large)
            try await put("videos/v1/master.m3u8", Array("#EXTM3U\n# first\n".utf8))
            try await put("images/never-asked.webp", PatternBytes.make(1000, seed: 3))
        } catch {
            try? await s3.shutdown()
            throw error
        }

        // One MiB: a segment of 512 KiB, so the 700 kB object is never held.
        let (cached, base) = try await Fetch.serve(
            [
                "--database", directory.file("a.sqlite"), "--library", store.libraryURL(prefix: prefix),
                "--media-cache-mb", "1",
            ], environment: store.environment)
        let (uncached, uncachedBase) = try await Fetch.serve(
            [
                "--database", directory.file("b.sqlite"), "--library", store.libraryURL(prefix: prefix),
                "--media-cache-mb", "0",
            ], environment: store.environment)
        do {
            try await withProcesses([cached, uncached]) {
                let media = base + "/media/"
                let whole = try await Fetch.fetch(media + "videos/v1/seg.m4s")
                #expect(whole.status == 200 && whole.body == segment)
                #expect(whole.headers["content-type"] == "video/mp4")
                #expect(whole.headers["cache-control"] == MediaPolicy.immutableCacheControl)
                let etag = try #require(whole.headers["etag"])
                #expect(try await Fetch.fetch(media + "videos/v1/large.m4s").body == large)
                #expect(try await Fetch.fetch(media + "videos/v1/master.m3u8").body == Array("#EXTM3U\n# first\n".utf8))
                #expect(try await Fetch.fetch(media + "videos/v1/missing.m4s").status == 404)

                await store.stop()
                // Held: every answer still comes, from memory.
                let again = try await Fetch.fetch(media + "videos/v1/seg.m4s")
                #expect(again.status == 200 && again.body == segment && again.headers["etag"] == etag)
                let part = try await Fetch.fetch(media + "videos/v1/seg.m4s", ["-r", "70000-70099"])
                #expect(part.status == 206 && part.body == Array(segment[70_000..<70_100]))
                #expect(part.headers["content-range"] == "bytes 70000-70099/300000")
                let suffix = try await Fetch.fetch(media + "videos/v1/seg.m4s", ["-r", "-10"])
                #expect(suffix.status == 206 && suffix.body == Array(segment.suffix(10)))
                let stale = try await Fetch.fetch(
                    media + "videos/v1/seg.m4s", ["-r", "0-9", "-H", "If-Range: \"not-the-tag\""])
                #expect(stale.status == 200 && stale.body == segment, "If-Range with another tag gets it all")
                #expect(
                    try await Fetch.fetch(media + "videos/v1/seg.m4s", ["-H", "If-None-Match: \(etag)"]).status == 304)
                let head = try await Fetch.fetch(media + "videos/v1/seg.m4s", ["-I"])
                #expect(head.status == 200 && head.headers["content-length"] == "300000")
                let outside = try await Fetch.fetch(media + "videos/v1/seg.m4s", ["-r", "300000-"])
                #expect(outside.status == 416 && outside.headers["content-range"] == "bytes */300000")
                // Not held: too large, never asked for, or a server that holds nothing.
                for (url, what) in [
                    (media + "videos/v1/large.m4s", "too large to hold"),
                    (media + "images/never-asked.webp", "never asked for"),
                    (uncachedBase + "/media/videos/v1/seg.m4s", "--media-cache-mb 0"),
                ] {
                    let away = try await Fetch.fetch(url)
                    #expect(away.status == 503 && away.headers["retry-after"] == "5", "\(what): \(away.status)")
                }
                // A playlist is trusted for its ten seconds; after them, a store that does not answer cannot say it
                // changed, and the one held is served.
                try await Task.sleep(for: .seconds(11))
                let held = try await Fetch.fetch(media + "videos/v1/master.m3u8")
                #expect(held.status == 200 && held.body == Array("#EXTM3U\n# first\n".utf8))

                try await store.start()
                try await put("videos/v1/master.m3u8", Array("#EXTM3U\n# second\n".utf8))
                #expect(
                    try await Fetch.fetch(uncachedBase + "/media/videos/v1/master.m3u8").body
                        == Array("#EXTM3U\n# second\n".utf8))
                var latest: [UInt8] = []
                let changed = try await ChildProcess.suspendUntil(seconds: 60) {
                    latest = try await Fetch.fetch(media + "videos/v1/master.m3u8").body
                    return latest == Array("#EXTM3U\n# second\n".utf8)
                }
                #expect(changed, "the held playlist was never read again: \(String(decoding: latest, as: UTF8.self))")
                let part2 = try await Fetch.fetch(media + "videos/v1/large.m4s", ["-r", "600000-600009"])
                #expect(part2.status == 206 && part2.body == Array(large[600_000..<600_010]))
            }
        } catch {
            try? await s3.shutdown()
            throw error
        }
        try await s3.shutdown()
    }
}
