import Deadlines
import FileSystem
import Foundation
import MediaFixtures
import NIOCore
import ObjectStore
import TestServers
import TestTraits
import Testing

/// The client against a real store: SeaweedFS (`weed mini`), started for each test.
@Suite(.offThePool, .timeLimit(.minutes(5))) struct S3ClientTests {
    @Test func putHeadGetAndDeleteKeepBytesAndHeaders() async throws {
        try await withStore { _, client in
            let key = try ObjectKey("videos/a b+c/ü 日本/🎬 seg=1&x.m4s")
            let bytes = PatternBytes.make(70_001)
            let etag = try await client.put(
                key, bytes: ByteBuffer(bytes: bytes), contentType: "video/mp4",
                cacheControl: "public, max-age=31536000, immutable")
            #expect(etag.hasPrefix("\"") && etag.count > 2)
            let info = try #require(try await client.head(key))
            #expect(info.size == 70_001 && info.etag == etag)
            #expect(info.contentType == "video/mp4" && info.cacheControl == "public, max-age=31536000, immutable")
            #expect(Array(buffer: try await client.get(key)) == bytes)
            try await client.delete(key)
            #expect(try await client.head(key) == nil)
            try await client.delete(key)
            await #expect {
                try await client.get(key)
            } throws: { ($0 as? ObjectStoreError)?.reason == .notFound }
        }
    }

    @Test func aCreateOnlyWriteNeverReplacesAnObject() async throws {
        try await withStore { _, client in
            let key = try ObjectKey("videos/v1/master.m3u8")
            try await client.put(
                key, bytes: ByteBuffer(string: "first"), contentType: "application/vnd.apple.mpegurl",
                cacheControl: "public, max-age=10", createOnly: true)
            await #expect {
                try await client.put(
                    key, bytes: ByteBuffer(string: "second"), contentType: "text/plain", cacheControl: "no-store",
                    createOnly: true)
            } throws: { error in
                let error = error as? ObjectStoreError
                return error?.reason == .preconditionFailed
                    && error?.description.contains("videos/v1/master.m3u8") == true
            }
            #expect(String(buffer: try await client.get(key)) == "first")
        }
    }

    @Test func rangesAndEntityTagsAreAnsweredByTheStore() async throws {
        try await withStore { _, client in
            let key = try ObjectKey("videos/r/seg_000.m4s")
            let bytes = PatternBytes.make(1000)
            let etag = try await client.put(
                key, bytes: ByteBuffer(bytes: bytes), contentType: "video/mp4", cacheControl: "public")
            let part = try await client.open(key, range: "bytes=100-199")
            #expect(part.status == 206 && part.contentRange == "bytes 100-199/1000" && part.info.size == 100)
            #expect(Array(buffer: try await part.body.collect(upTo: 1 << 20)) == Array(bytes[100...199]))
            let unchanged = try await client.open(key, ifNoneMatch: etag)
            #expect(unchanged.status == 304)
        }
    }

    @Test func aBigFileGoesInPartsAndComesBackWhole() async throws {
        try await withStore { _, client in
            let directory = try TemporaryDirectory()
            let bytes = PatternBytes.make(21 << 20 | 12_345)
            let source = try directory.write("original.mp4", bytes)
            let key = try ObjectKey("originals/job1")
            let stored = try await client.upload(
                file: source, to: key, contentType: "video/mp4", cacheControl: "private, no-store", createOnly: true)
            #expect(stored.size == Int64(bytes.count))
            // A multipart object's entity tag ends in the number of its parts: 8 + 8 + 5 MB and a bit.
            #expect(stored.etag.hasSuffix("-3\""), "\(stored.etag)")
            let info = try #require(try await client.head(key))
            #expect(info.size == Int64(bytes.count) && info.contentType == "video/mp4")
            #expect(info.cacheControl == "private, no-store")
            let copy = directory.file("copy.mp4")
            #expect(try await client.download(key, to: copy) == Int64(bytes.count))
            #expect(try Array(Data(contentsOf: URL(fileURLWithPath: copy))) == bytes)

            let small = try directory.write("small.webp", PatternBytes.make(3 << 20))
            let single = try await client.upload(
                file: small, to: try ObjectKey("images/s.webp"), contentType: "image/webp", cacheControl: "public")
            #expect(!single.etag.contains("-"), "a file under 8 MB goes in one PUT: \(single.etag)")
        }
    }

    @Test func aMultipartUploadThatCannotCompleteIsAbortedAndTheObjectKept() async throws {
        try await withStore { _, client in
            let directory = try TemporaryDirectory()
            let key = try ObjectKey("videos/taken/seg.m4s")
            try await client.put(
                key, bytes: ByteBuffer(string: "kept"), contentType: "video/mp4", cacheControl: "public")
            let big = try directory.write("big", PatternBytes.make(17 << 20))
            await #expect {
                try await client.upload(
                    file: big, to: key, contentType: "video/mp4", cacheControl: "public", createOnly: true)
            } throws: { ($0 as? ObjectStoreError)?.reason == .preconditionFailed }
            #expect(String(buffer: try await client.get(key)) == "kept")

            let upload = try await client.createMultipartUpload(
                try ObjectKey("videos/abandoned/x"), contentType: "video/mp4", cacheControl: "public")
            let part = try await client.uploadPart(
                try ObjectKey("videos/abandoned/x"), uploadID: upload, number: 1,
                bytes: ByteBuffer(bytes: PatternBytes.make(5 << 20)))
            #expect(try await client.listParts(try ObjectKey("videos/abandoned/x"), uploadID: upload) == [part])
            try await client.abortMultipartUpload(try ObjectKey("videos/abandoned/x"), uploadID: upload)
            await #expect {
                try await client.listParts(try ObjectKey("videos/abandoned/x"), uploadID: upload)
            } throws: { ($0 as? ObjectStoreError)?.reason == .notFound }
        }
    }

    @Test func aListingHoldsTheKeysUnderItsPrefixOnly() async throws {
        try await withStore(prefix: "tenant/lib") { server, client in
            for name in ["b", "a", "c d", "ü"] {
                try await client.put(
                    try ObjectKey("videos/v/\(name)"), bytes: ByteBuffer(string: name), contentType: "text/plain",
                    cacheControl: "public")
            }
            try await client.put(
                try ObjectKey("images/i.webp"), bytes: ByteBuffer(string: "i"), contentType: "image/webp",
                cacheControl: "public")
            let listed = try await client.list(prefix: "videos/")
            #expect(listed.map(\.key) == ["videos/v/a", "videos/v/b", "videos/v/c d", "videos/v/ü"])
            #expect(listed.map(\.size) == [1, 1, 3, 2])
            #expect(try await client.list(prefix: "").count == 5)
            let other = try makeClient(for: server, prefix: "tenant/other")
            #expect(try await other.list(prefix: "").isEmpty)
            try await other.shutdown()
        }
    }

    @Test func wrongCredentialsAreDeniedAndTheSecretIsNeverShown() async throws {
        let server = try await SeaweedTestServer()
        let wrong = try makeClient(for: server, prefix: "lib", secret: "wrong-secret-value")
        await #expect {
            try await wrong.put(
                try ObjectKey("k"), bytes: ByteBuffer(string: "x"), contentType: "text/plain", cacheControl: "public")
        } throws: { error in
            let error = error as? ObjectStoreError
            return error?.reason == .denied && error?.description.contains("wrong-secret-value") == false
                && error?.description.contains(server.secretAccessKey) == false
        }
        try await wrong.shutdown()
    }

    @Test func aStoreThatRestartsIsRiddenOut() async throws {
        // Twelve attempts span about a minute: a restart beside a loaded suite takes far longer than its 1.6 s alone.
        try await withStore(retry: S3RetryPolicy(maxAttempts: 12, baseSeconds: 0.25, capSeconds: 8), ownServer: true) {
            server, client in
            await server.stop()
            let restart = Task {
                try await Task.sleep(for: .seconds(2))
                try await server.start()
            }
            let key = try ObjectKey("videos/after-restart/seg.m4s")
            try await client.put(
                key, bytes: ByteBuffer(string: "late"), contentType: "video/mp4", cacheControl: "public")
            try await restart.value
            #expect(String(buffer: try await client.get(key)) == "late")
        }
    }

    @Test func aStoreThatStaysAwayIsUnavailableAfterTheRetries() async throws {
        try await withStore(retry: S3RetryPolicy(maxAttempts: 3, baseSeconds: 0.05, capSeconds: 0.2), ownServer: true) {
            server, client in
            await server.stop()
            await #expect {
                try await client.head(try ObjectKey("videos/x"))
            } throws: { error in
                let error = error as? ObjectStoreError
                return error?.reason == .unavailable && error?.isTransient == true
                    && error?.description.contains("gave up after 3 attempts") == true
            }
        }
    }
}

/// A download onto a really full file system (a small tmpfs, mounted as root, as CI runs).
@Suite(.offThePool, .timeLimit(.minutes(5))) struct S3DownloadDiskFullTests {
    @Test(.enabled(if: getuid() == 0, "mounting a tmpfs needs root"))
    func aDownloadOntoAFullDiskFailsAsAFullDiskAndLeavesNothing() async throws {
        let directory = try TemporaryDirectory()
        let mount = directory.file("small-fs")
        try FileManager.default.createDirectory(atPath: mount, withIntermediateDirectories: true)
        let mounted = try await ChildProcess.run(["/bin/mount", "-t", "tmpfs", "-o", "size=4m", "tmpfs", mount])
        try #require(mounted.status == 0, "mount: \(mounted.stderr)")
        do {
            try await withStore { _, client in
                let key = try ObjectKey("originals/big")
                try await client.put(
                    key, bytes: ByteBuffer(bytes: PatternBytes.make(6 << 20)), contentType: "application/octet-stream",
                    cacheControl: "private, no-store")
                await #expect {
                    try await client.download(key, to: mount + "/scratch")
                } throws: { ($0 as? FileSystemError)?.isDiskFull == true }
                #expect(!FileManager.default.fileExists(atPath: mount + "/scratch"))
            }
        } catch {
            _ = try? await ChildProcess.run(["/bin/umount", "-l", mount])
            throw error
        }
        _ = try? await ChildProcess.run(["/bin/umount", "-l", mount])
    }
}
