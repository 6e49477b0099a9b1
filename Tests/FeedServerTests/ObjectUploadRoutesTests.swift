import Catalog
import FileSystem
import Foundation
import GRDB
import Hummingbird
import HummingbirdTesting
import MediaFixtures
import MediaModel
import MediaStoreS3
import ObjectStore
import SQLiteCatalog
import SigV4
import TestServers
import TestTraits
import Testing

@testable import FeedServer

/// `/v1/uploads` with the library in object storage (a prefix of the process's shared SeaweedFS): the bytes go up as
/// the parts of a multipart upload at the job's original key, the part in progress as a tail object, the offset in
/// the catalog; so a second server on the same catalog and store takes the next PATCH.
@Suite(.offThePool, .timeLimit(.minutes(5))) struct ObjectUploadRoutesTests {
    /// One test's catalog, store prefix and token; `desk()` is a server's desk (a second call, a second server).
    struct Rig {
        let directory: TemporaryDirectory
        let database: SQLiteCatalogDatabase
        let store: SQLiteCatalogEngine
        let client: S3Client
        let token: String

        func desk() throws -> UploadDesk {
            UploadDesk(
                store: store,
                configuration: UploadConfiguration(uploads: S3ResumableUploads(client: client), limits: .default))
        }

        func app(_ desk: UploadDesk) -> some ApplicationProtocol {
            var server = FeedServer(store: store, media: nil)
            server.uploads = desk
            return Application(router: server.router())
        }

        /// Every key under `prefix` in the test's part of the store, sorted.
        func keys(_ prefix: String = "") async throws -> [String] {
            try await client.list(prefix: prefix).map(\.key).sorted()
        }

        /// A clip's bytes (so the first 512 bytes sniff as MP4), then `padding` more: the desk reads no further than
        /// the sniff, and a big upload needs no big encode.
        func upload(padding: Int) throws -> [UInt8] {
            let path = directory.file("source.mp4")
            try SyntheticVideo(width: 320, height: 240, seconds: 1.5).write(to: path)
            return Array(try Data(contentsOf: URL(fileURLWithPath: path))) + PatternBytes.make(padding)
        }
    }

    static func withRig(
        endpoint: String? = nil, retry: S3RetryPolicy = .standard, _ body: (Rig) async throws -> Void
    ) async throws {
        let directory = try TemporaryDirectory()
        let database = try SQLiteCatalogDatabase(path: directory.file("catalog.sqlite"))
        let store = SQLiteCatalogEngine(database: database)
        let client: S3Client
        if let endpoint {
            client = S3Client(
                location: try S3Location(parsing: "s3://bucket/lib?endpoint=\(endpoint)"),
                credentials: SigV4Credentials(accessKeyID: "AKID", secretAccessKey: "secret"), retry: retry)
        } else {
            let server = try await SeaweedTestServer.shared()
            client = S3Client(
                location: try S3Location(parsing: server.libraryURL(prefix: SeaweedTestServer.newPrefix())),
                credentials: SigV4Credentials(
                    accessKeyID: server.accessKeyID, secretAccessKey: server.secretAccessKey),
                retry: retry)
        }
        let (secret, hash) = try BearerToken.generate()
        try await store.createToken(UploadToken(id: "phone", name: "phone", hash: hash, rateLimit: nil, createdAt: 1))
        let rig = Rig(directory: directory, database: database, store: store, client: client, token: secret)
        do {
            try await body(rig)
        } catch {
            try? await client.shutdown()
            throw error
        }
        try await client.shutdown()
    }

    static func headers(_ rig: Rig, _ extra: HTTPFields = [:]) -> HTTPFields {
        var fields: HTTPFields = [TusHeader.resumable: "1.0.0", .authorization: "Bearer \(rig.token)"]
        fields.append(contentsOf: extra)
        return fields
    }

    static func create(_ client: some TestClientProtocol, _ rig: Rig, length: Int) async throws -> String {
        let metadata = "filename \(Data("clip.mp4".utf8).base64EncodedString())"
        return try await client.execute(
            uri: "/v1/uploads", method: .post,
            headers: headers(rig, [TusHeader.length: String(length), TusHeader.metadata: metadata])
        ) { response in
            #expect(response.status == .created, "\(String(buffer: response.body))")
            return try #require(response.headers[.location])
        }
    }

    static func patch(
        _ client: some TestClientProtocol, _ rig: Rig, _ location: String, offset: Int, _ bytes: ArraySlice<UInt8>,
        extra: HTTPFields = [:]
    ) async throws -> TestResponse {
        try await client.execute(
            uri: location, method: .patch,
            headers: headers(
                rig,
                [.contentType: TusHeader.offsetContentType, TusHeader.offset: String(offset)] + extra),
            body: ByteBuffer(bytes: bytes))
    }

    static func offset(_ client: some TestClientProtocol, _ rig: Rig, _ location: String) async throws -> String? {
        try await client.execute(uri: location, method: .head, headers: headers(rig)) { response in
            response.headers[TusHeader.offset]
        }
    }

    static func id(of location: String) -> String { String(location.split(separator: "/").last ?? "") }

    @Test func partsAndATailBecomeTheJobsOriginalAndASecondServerResumesTheUpload() async throws {
        try await Self.withRig { rig in
            let bytes = try rig.upload(padding: 12_000_000)
            let part = S3Client.minimumPartSize
            let location = try await rig.app(try rig.desk()).test(.router) { client in
                let location = try await Self.create(client, rig, length: bytes.count)
                let id = Self.id(of: location)
                let first = try await Self.patch(client, rig, location, offset: 0, bytes[..<3_000_000])
                #expect(first.status == .noContent && first.headers[TusHeader.offset] == "3000000")
                // Under a part: the acknowledged bytes are the tail object of the offset.
                #expect(
                    try await rig.keys(ObjectLayout.uploads)
                        == [ObjectLayout.uploadInfo(id), ObjectLayout.uploadTail(id, offset: 3_000_000)])
                let second = try await Self.patch(
                    client, rig, location, offset: 3_000_000, bytes[3_000_000..<7_000_000])
                #expect(second.status == .noContent && second.headers[TusHeader.offset] == "7000000")
                // One full part went up; the tail now holds the 7 000 000 - 5 MiB after it, and the old tail is gone.
                #expect(
                    try await rig.keys(ObjectLayout.uploads)
                        == [ObjectLayout.uploadInfo(id), ObjectLayout.uploadTail(id, offset: 7_000_000)])
                let tail = try await rig.client.get(try ObjectKey(ObjectLayout.uploadTail(id, offset: 7_000_000)))
                #expect(
                    tail.getBytes(at: tail.readerIndex, length: tail.readableBytes) == Array(bytes[part..<7_000_000]))
                // ...and names the full part's entity tag, which the completion uses.
                let info = try await rig.client.head(try ObjectKey(ObjectLayout.uploadTail(id, offset: 7_000_000)))
                #expect(
                    info?.metadata[S3ResumableUploads.partsName]?.split(separator: " ").count == 1,
                    "\(String(describing: info))")
                #expect(try await rig.keys(ObjectLayout.originals).isEmpty, "no original before the last byte")
                return location
            }
            // The first server is gone; a second one, on the same catalog and store, takes the rest.
            try await rig.app(try rig.desk()).test(.router) { client in
                #expect(try await Self.offset(client, rig, location) == "7000000")
                let last = try await Self.patch(client, rig, location, offset: 7_000_000, bytes[7_000_000...])
                #expect(last.status == .noContent, "\(String(buffer: last.body))")
                #expect(last.headers[TusHeader.offset] == String(bytes.count))
                let id = Self.id(of: location)
                // The upload's id is its job's: the multipart upload was already at the job's original key.
                #expect(last.headers[TusHeader.reelJob] == "/v1/jobs/\(id)")
                let job = try #require(try await rig.store.job(id: id))
                #expect(job.state == .queued && job.sourceName == Array("clip.mp4".utf8))
                let original = try await rig.client.get(try ObjectKey(ObjectLayout.original(id)), limit: 32 << 20)
                #expect(original.readableBytes == bytes.count)
                #expect(
                    original.getBytes(at: original.readerIndex, length: original.readableBytes) == bytes,
                    "the original is the uploaded bytes, in order")
                #expect(try await rig.keys(ObjectLayout.uploads).isEmpty, "the info and tail objects are gone")
            }
        }
    }

    @Test func aChecksumMismatchAcrossAPartBoundaryAcknowledgesNothingAndTheRetryReplacesThePart() async throws {
        try await Self.withRig { rig in
            let bytes = try rig.upload(padding: 6_500_000)
            let chunk = bytes[..<6_000_000]
            let digest = try ContentHash(.sha256)
            chunk.withUnsafeBytes { digest.update($0) }
            let good = Data(digest.finishBytes()).base64EncodedString()
            var spoiled = Array(chunk)
            spoiled[100_000] ^= 0xFF  // inside the first part, which the refused PATCH already sent to the store
            let wrong = spoiled
            try await rig.app(try rig.desk()).test(.router) { client in
                let location = try await Self.create(client, rig, length: bytes.count)
                let refused = try await Self.patch(
                    client, rig, location, offset: 0, wrong[...], extra: [TusHeader.checksum: "sha256 \(good)"])
                #expect(refused.status.code == 460, "\(String(buffer: refused.body))")
                #expect(try await Self.offset(client, rig, location) == "0")
                let accepted = try await Self.patch(
                    client, rig, location, offset: 0, chunk, extra: [TusHeader.checksum: "sha256 \(good)"])
                #expect(accepted.status == .noContent && accepted.headers[TusHeader.offset] == "6000000")
                let last = try await Self.patch(client, rig, location, offset: 6_000_000, bytes[6_000_000...])
                #expect(last.status == .noContent, "\(String(buffer: last.body))")
                let id = Self.id(of: location)
                let original = try await rig.client.get(try ObjectKey(ObjectLayout.original(id)), limit: 32 << 20)
                #expect(
                    original.getBytes(at: original.readerIndex, length: original.readableBytes) == bytes,
                    "the refused PATCH's part was replaced by the retry's")
            }
        }
    }

    @Test func terminationAndExpiryAbortTheMultipartUploadAndRemoveItsObjects() async throws {
        try await Self.withRig { rig in
            let bytes = try rig.upload(padding: 6_000_000)
            let desk = try rig.desk()
            try await rig.app(desk).test(.router) { client in
                var ids: [String] = []
                var multipartIDs: [String] = []
                for _ in 0..<2 {
                    let location = try await Self.create(client, rig, length: bytes.count)
                    let id = Self.id(of: location)
                    let response = try await Self.patch(client, rig, location, offset: 0, bytes[..<5_500_000])
                    #expect(response.status == .noContent)
                    ids.append(id)
                    multipartIDs.append(
                        String(buffer: try await rig.client.get(try ObjectKey(ObjectLayout.uploadInfo(id)))))
                }
                try await client.execute(uri: "/v1/uploads/\(ids[0])", method: .delete, headers: Self.headers(rig)) {
                    response in
                    #expect(response.status == .noContent)
                }
                let later = Int64(Date().timeIntervalSince1970 * 1000) + 25 * 3600 * 1000
                #expect(try await desk.removeExpired(now: later) == 1)
                for (id, multipartID) in zip(ids, multipartIDs) {
                    #expect(try await rig.store.upload(id: id) == nil)
                    // The store no longer knows the multipart upload: its part is freed.
                    await #expect(throws: ObjectStoreError.self) {
                        try await rig.client.listParts(try ObjectKey(ObjectLayout.original(id)), uploadID: multipartID)
                    }
                }
                let left = try await rig.keys()
                #expect(left.isEmpty, "\(left)")
            }
        }
    }

    @Test func aCompleteUploadWhoseHandOverWasCutShortIsFinishedByHeadOrByTheExpirySweep() async throws {
        try await Self.withRig { rig in
            let bytes = try rig.upload(padding: 100_000)
            let desk = try rig.desk()
            try await rig.app(desk).test(.router) { client in
                var ids: [String] = []
                for _ in 0..<2 {
                    let location = try await Self.create(client, rig, length: bytes.count)
                    #expect(try await Self.patch(client, rig, location, offset: 0, bytes[...]).status == .noContent)
                    ids.append(Self.id(of: location))
                }
                // As if each server had died right after acknowledging the last byte: no job yet.
                try await rig.database.pool.write { db in
                    try db.execute(sql: "DELETE FROM jobs")
                    try db.execute(sql: "UPDATE uploads SET job_id = NULL, finished_at = NULL, expires_at = 0")
                }
                try await client.execute(uri: "/v1/uploads/\(ids[0])", method: .head, headers: Self.headers(rig)) {
                    response in
                    #expect(response.status == .ok)
                    #expect(response.headers[TusHeader.reelJob] == "/v1/jobs/\(ids[0])")
                }
                #expect(try await desk.removeExpired(now: Int64(Date().timeIntervalSince1970 * 1000)) == 0)
                for id in ids {
                    #expect(try await rig.store.job(id: id)?.state == .queued, "upload \(id) became a queued job")
                    #expect(
                        try await rig.client.head(try ObjectKey(ObjectLayout.original(id)))?.size == Int64(bytes.count))
                }
            }
        }
    }

    @Test func aRefusedFormatEndsTheUploadAndFreesItsMultipartUpload() async throws {
        try await Self.withRig { rig in
            let playlist = Array("#EXTM3U\n#EXT-X-VERSION:3\n".utf8) + Array(repeating: UInt8(ascii: "\n"), count: 600)
            try await rig.app(try rig.desk()).test(.router) { client in
                let location = try await Self.create(client, rig, length: playlist.count)
                let response = try await Self.patch(client, rig, location, offset: 0, playlist[...])
                #expect(response.status == .unprocessableContent)
                #expect(String(buffer: response.body).contains(RejectionReason.forbiddenFormat.rawValue))
                #expect(try await rig.store.upload(id: Self.id(of: location)) == nil)
                #expect(try await rig.keys().isEmpty)
            }
        }
    }

    @Test func aStoreThatDoesNotAnswerIs503WithRetryAfterAndNothingIsRecorded() async throws {
        let port = try FreePort.pick()
        try await Self.withRig(
            endpoint: "http://127.0.0.1:\(port)",
            retry: S3RetryPolicy(maxAttempts: 2, baseSeconds: 0.05, capSeconds: 0.1)
        ) { rig in
            try await rig.app(try rig.desk()).test(.router) { client in
                try await client.execute(
                    uri: "/v1/uploads", method: .post, headers: Self.headers(rig, [TusHeader.length: "1000"])
                ) { response in
                    #expect(response.status == .serviceUnavailable, "\(String(buffer: response.body))")
                    #expect(response.headers[.retryAfter] == "5")
                    #expect(response.headers[TusHeader.resumable] == "1.0.0")
                    #expect(String(buffer: response.body).contains("storage_unavailable"))
                }
            }
            #expect(try await rig.store.expiredUploads(now: .max).isEmpty, "no upload was recorded")
        }
    }
}

private func + (lhs: HTTPFields, rhs: HTTPFields) -> HTTPFields {
    var fields = lhs
    fields.append(contentsOf: rhs)
    return fields
}
