import Foundation
import MediaStore
import NIOCore
import TestTraits
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// What every engine of the library's objects does the same way: the directory and S3 (SeaweedFS, `weed mini`).
@Suite(.offThePool, .timeLimit(.minutes(5))) struct MediaStoreConformanceTests {
    @Test(arguments: Engine.allCases) func putHeadGetAndDeleteKeepBytesAndType(engine: Engine) async throws {
        try await engine.withStore { store, _ in
            let key = try MediaKey("videos/a b+c/ü 日本/seg=1&x.m4s")
            let bytes = patternBytes(70_001)
            try await store.put(
                key, bytes: ByteBuffer(bytes: bytes), attributes: .media(named: key.value), createOnly: false)
            let info = try #require(try await store.head(key))
            #expect(info.size == 70_001 && info.key == key.value)
            #expect(info.etag.hasPrefix("\"") && info.etag.hasSuffix("\"") && info.etag.count > 2)
            #expect(info.contentType == "video/mp4" && info.cacheControl == "public, max-age=31536000, immutable")
            let read = try await store.get(key, range: nil, ifNoneMatch: nil)
            #expect(read.status == .whole && read.info.size == 70_001 && read.info.etag == info.etag)
            #expect(Array(buffer: try await read.body.collect(upTo: 1 << 20, key: key.value)) == bytes)
            try await store.delete(key)
            #expect(try await store.head(key) == nil)
            try await store.delete(key)
            await #expect(throws: MediaStoreError.notFound(key: key.value)) {
                try await store.get(key, range: nil, ifNoneMatch: nil)
            }
        }
    }

    @Test(arguments: Engine.allCases) func aCreateOnlyWriteNeverReplacesAnObject(engine: Engine) async throws {
        try await engine.withStore { store, _ in
            let key = try MediaKey("videos/v1/master.m3u8")
            try await store.put(
                key, bytes: ByteBuffer(string: "first"), attributes: .media(named: key.value), createOnly: true)
            await #expect(throws: MediaStoreError.alreadyExists(key: key.value)) {
                try await store.put(
                    key, bytes: ByteBuffer(string: "second"), attributes: .media(named: key.value), createOnly: true)
            }
            #expect(String(buffer: try await store.contents(of: key)) == "first")
            try await store.put(
                key, bytes: ByteBuffer(string: "third"), attributes: .media(named: key.value), createOnly: false)
            #expect(String(buffer: try await store.contents(of: key)) == "third")
            #expect(try await store.head(key)?.contentType == "application/vnd.apple.mpegurl")
        }
    }

    @Test(arguments: Engine.allCases) func rangesAnswerTheBytesAskedFor(engine: Engine) async throws {
        try await engine.withStore { store, _ in
            let key = try MediaKey("videos/r/seg_000.m4s")
            let bytes = patternBytes(1000)
            try await store.put(
                key, bytes: ByteBuffer(bytes: bytes), attributes: .media(named: key.value), createOnly: false)
            let cases: [(MediaByteRange, ClosedRange<Int64>)] = [
                (.span(first: 100, last: 199), 100...199), (.from(990), 990...999), (.suffix(10), 990...999),
                (.span(first: 995, last: 2000), 995...999), (.span(first: 0, last: 0), 0...0),
            ]
            for (range, expected) in cases {
                let read = try await store.get(key, range: range, ifNoneMatch: nil)
                #expect(read.status == .partial(expected), "\(range)")
                #expect(read.info.size == 1000 && read.contentLength == Int64(expected.count))
                #expect(read.contentRange == "bytes \(expected.lowerBound)-\(expected.upperBound)/1000")
                let body = Array(buffer: try await read.body.collect(upTo: 4096, key: key.value))
                #expect(body == Array(bytes[Int(expected.lowerBound)...Int(expected.upperBound)]), "\(range)")
            }
            for range in [MediaByteRange.span(first: 1000, last: 1001), .from(5000)] {
                await #expect(throws: MediaStoreError.self, "\(range)") {
                    try await store.get(key, range: range, ifNoneMatch: nil)
                }
                do {
                    _ = try await store.get(key, range: range, ifNoneMatch: nil)
                } catch let error as MediaStoreError {
                    guard case .rangeNotSatisfiable(let name, let size) = error else {
                        Issue.record("\(range): \(error)")
                        continue
                    }
                    #expect(name == key.value && size == 1000)
                }
            }
        }
    }

    @Test(arguments: Engine.allCases) func aMatchingEntityTagIsNotModified(engine: Engine) async throws {
        try await engine.withStore { store, _ in
            let key = try MediaKey("images/p.webp")
            try await store.put(
                key, bytes: ByteBuffer(string: "RIFF...."), attributes: .media(named: key.value), createOnly: false)
            let etag = try #require(try await store.head(key)?.etag)
            let same = try await store.get(key, range: nil, ifNoneMatch: etag)
            #expect(same.status == .notModified && same.contentLength == 0)
            let other = try await store.get(key, range: nil, ifNoneMatch: "\"other\"")
            #expect(other.status == .whole)
            #expect(String(buffer: try await other.body.collect(upTo: 100, key: key.value)) == "RIFF....")
        }
    }

    @Test(arguments: Engine.allCases) func listingsFindKeysByTextPrefixInKeyOrder(engine: Engine) async throws {
        try await engine.withStore { store, _ in
            let keys = ["videos/a/2.m4s", "videos/a/1.m4s", "videos/ab/x.m3u8", "images/z.webp", "originals/a"]
            for (index, key) in keys.enumerated() {
                try await store.put(
                    try MediaKey(key), bytes: ByteBuffer(bytes: patternBytes(index + 1)),
                    attributes: .media(named: key), createOnly: false)
            }
            #expect(try await store.list(prefix: "videos/a/").map(\.key) == ["videos/a/1.m4s", "videos/a/2.m4s"])
            #expect(
                try await store.list(prefix: "videos/a").map(\.key)
                    == ["videos/a/1.m4s", "videos/a/2.m4s", "videos/ab/x.m3u8"])
            let all = try await store.list(prefix: "")
            #expect(all.map(\.key) == keys.sorted())
            #expect(all.first { $0.key == "originals/a" }?.size == 5)
            let head = try #require(try await store.head(MediaKey("videos/a/1.m4s")))
            #expect(all.first { $0.key == "videos/a/1.m4s" }?.etag == head.etag)
            #expect(try await store.list(prefix: "nothing/").isEmpty)
            await #expect(throws: MediaStoreError.self) { try await store.list(prefix: "/videos") }
        }
    }

    /// Where the library holds nothing but objects, a strict listing (a copy's) finds what a listing finds.
    @Test(arguments: Engine.allCases) func aStrictListingOfObjectsIsTheListing(engine: Engine) async throws {
        try await engine.withStore { store, _ in
            for (index, key) in ["videos/a/1.m4s", "videos/b/2.m4s", "images/z.webp"].enumerated() {
                try await store.put(
                    try MediaKey(key), bytes: ByteBuffer(bytes: patternBytes(index + 1)),
                    attributes: .media(named: key), createOnly: false)
            }
            for prefix in ["", "videos/", "videos/a", "nothing/"] {
                let strict = try await store.listStrictly(prefix: prefix)
                #expect(strict == (try await store.list(prefix: prefix)), "\(prefix)")
            }
            #expect(try await store.listStrictly(prefix: "videos/").map(\.key) == ["videos/a/1.m4s", "videos/b/2.m4s"])
            await #expect(throws: MediaStoreError.self) { try await store.listStrictly(prefix: "/videos") }
        }
    }

    /// A sweep judges an object's age by its listing: every listed object says when it was written.
    @Test(arguments: Engine.allCases) func listingsSayWhenEachObjectWasWritten(engine: Engine) async throws {
        try await engine.withStore { store, _ in
            let before = Int64(Date().timeIntervalSince1970)
            for key in ["videos/v.e1/master.m3u8", "images/i.e1.webp"] {
                try await store.put(
                    try MediaKey(key), bytes: ByteBuffer(string: key), attributes: .media(named: key),
                    createOnly: true)
            }
            let after = Int64(Date().timeIntervalSince1970)
            let listed = try await store.list(prefix: "")
            #expect(listed.count == 2)
            // A store's clock may be a little off this host's, and its times are whole seconds.
            for object in listed {
                let modified = try #require(object.modifiedSeconds, "\(object.key)")
                #expect((before - 60)...(after + 60) ~= modified, "\(object.key): \(modified) vs \(before)...\(after)")
            }
        }
    }

    @Test(arguments: Engine.allCases) func aFileIsStoredAsACopy(engine: Engine) async throws {
        try await engine.withStore { store, scratch in
            let bytes = patternBytes(300_000, seed: 7)
            try writeFile(scratch + "/upload.bin", bytes)
            let key = try MediaKey("originals/0123456789abcdef0123")
            let info = try await store.put(
                key, file: scratch + "/upload.bin", attributes: .private(metadata: ["sha256": "abc"]), createOnly: true)
            #expect(info.size == 300_000)
            #expect(Array(buffer: try await store.contents(of: key)) == bytes)
            #expect(FileManager.default.fileExists(atPath: scratch + "/upload.bin"))
            if store.keepsMetadata {
                #expect(try await store.head(key)?.metadata["sha256"] == "abc")
            }
            await #expect(throws: MediaStoreError.alreadyExists(key: key.value)) {
                try await store.put(key, file: scratch + "/upload.bin", attributes: .private(), createOnly: true)
            }
            await #expect(throws: MediaStoreError.notFound(key: scratch + "/missing")) {
                try await store.put(
                    try MediaKey("originals/x"), file: scratch + "/missing", attributes: .private(), createOnly: false)
            }
        }
    }

    @Test(arguments: Engine.allCases) func presignedURLsWorkWhereTheEngineCanPresign(engine: Engine) async throws {
        try await engine.withStore { store, _ in
            let key = try MediaKey("videos/p/master.m3u8")
            try await store.put(
                key, bytes: ByteBuffer(string: "#EXTM3U\n"), attributes: .media(named: key.value), createOnly: false)
            guard store.canPresign else {
                #expect(throws: MediaStoreError.unsupported(operation: "presign a URL", store: store.name)) {
                    try store.presignedURL(for: key, expires: .seconds(60))
                }
                return
            }
            let url = try #require(URL(string: try store.presignedURL(for: key, expires: .seconds(60))))
            #expect(url.query?.contains("X-Amz-Signature=") == true)
            let (data, response) = try await URLSession.shared.data(from: url)
            #expect((response as? HTTPURLResponse)?.statusCode == 200)
            #expect(String(decoding: data, as: UTF8.self) == "#EXTM3U\n")
        }
    }

    @Test(arguments: Engine.allCases) func aStagedTreeIsPublishedWhole(engine: Engine) async throws {
        try await engine.withStore { store, scratch in
            let staged = scratch + "/job1"
            try writeFile(staged + "/master.m3u8", Array("#EXTM3U\n".utf8))
            try writeFile(staged + "/720p/seg_000.m4s", patternBytes(5000))
            try writeFile(staged + "/720p/init.mp4", patternBytes(100))
            let seen = Counter()
            let count = try await store.publish(staged: staged, to: try MediaKey("videos/v1.e1")) { done in
                await seen.set(done)
            }
            let reported = await seen.value
            #expect(count == 3 && reported == 3)
            let listed = try await store.list(prefix: "videos/v1.e1/")
            #expect(
                listed.map(\.key) == [
                    "videos/v1.e1/720p/init.mp4", "videos/v1.e1/720p/seg_000.m4s", "videos/v1.e1/master.m3u8",
                ])
            let playlist = try #require(try await store.head(MediaKey("videos/v1.e1/master.m3u8")))
            #expect(
                playlist.contentType == "application/vnd.apple.mpegurl" && playlist.cacheControl == "public, max-age=10"
            )
            #expect(
                Array(buffer: try await store.contents(of: MediaKey("videos/v1.e1/720p/seg_000.m4s")))
                    == patternBytes(5000))
        }
    }

    @Test(arguments: Engine.allCases) func aStagedFileIsPublishedAsOneObject(engine: Engine) async throws {
        try await engine.withStore { store, scratch in
            try writeFile(scratch + "/job2/media.webp", Array("RIFFWEBP".utf8))
            let key = try MediaKey("images/i1.e2.webp")
            #expect(try await store.publish(staged: scratch + "/job2/media.webp", to: key) == 1)
            #expect(String(buffer: try await store.contents(of: key)) == "RIFFWEBP")
            #expect(try await store.head(key)?.contentType == "image/webp")
        }
    }

    @Test(arguments: Engine.allCases) func aPublishNeverReplacesOtherBytes(engine: Engine) async throws {
        try await engine.withStore { store, scratch in
            try writeFile(scratch + "/a/master.m3u8", Array("#EXTM3U\nfirst\n".utf8))
            try writeFile(scratch + "/b/master.m3u8", Array("#EXTM3U\nsecond\n".utf8))
            let key = try MediaKey("videos/v2")
            try await store.publish(staged: scratch + "/a", to: key)
            await #expect(throws: MediaStoreError.self) { try await store.publish(staged: scratch + "/b", to: key) }
            #expect(String(buffer: try await store.contents(of: key.appending("master.m3u8"))) == "#EXTM3U\nfirst\n")
            await #expect(throws: MediaStoreError.notFound(key: scratch + "/missing")) {
                try await store.publish(staged: scratch + "/missing", to: try MediaKey("videos/v3"))
            }
        }
    }

    @Test(arguments: Engine.allCases) func deletingEveryObjectFreesTheKeyForAPublish(engine: Engine) async throws {
        try await engine.withStore { store, scratch in
            try writeFile(scratch + "/a/720p/seg.m4s", patternBytes(10))
            let key = try MediaKey("videos/v4")
            try await store.publish(staged: scratch + "/a", to: key)
            for object in try await store.list(prefix: "videos/v4/") { try await store.delete(MediaKey(object.key)) }
            #expect(try await store.list(prefix: "videos/v4/").isEmpty)
            try writeFile(scratch + "/b/720p/seg.m4s", patternBytes(20))
            #expect(try await store.publish(staged: scratch + "/b", to: key) == 1)
            #expect(try await store.head(key.appending("720p/seg.m4s"))?.size == 20)
        }
    }
}

/// The last count `publish` reported.
actor Counter {
    private(set) var value = 0
    func set(_ value: Int) { self.value = value }
}
