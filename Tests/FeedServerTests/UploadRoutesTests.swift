import Catalog
import FileSystem
import Foundation
import Hummingbird
import HummingbirdTesting
import MediaFixtures
import MediaModel
import MediaStore
import MediaStoreDirectory
import SQLiteCatalog
import TestTraits
import Testing

@testable import FeedServer

/// `/v1/uploads` through the router: tus 1.0.0's core and extensions, tokens, early refusals, and the hand-over of
/// a finished upload to the job queue (the same states and files as the inbox).
@Suite(.offThePool, .timeLimit(.minutes(5))) struct UploadRoutesTests {
    let directory: TemporaryDirectory
    let store: SQLiteCatalogEngine
    let desk: UploadDesk
    let server: FeedServer
    let token: String
    let otherToken: String
    var app: some ApplicationProtocol { Application(router: server.router()) }

    init() async throws {
        directory = try TemporaryDirectory()
        store = SQLiteCatalogEngine(database: try SQLiteCatalogDatabase(path: directory.file("catalog.sqlite")))
        desk = try UploadDesk(
            store: store, configuration: UploadConfiguration(library: directory.file("library"), limits: .default))
        var server = FeedServer(store: store, media: try .directory(directory.file("library")))
        server.uploads = desk
        self.server = server
        token = try await Self.makeToken(store, name: "phone")
        otherToken = try await Self.makeToken(store, name: "other")
    }

    static func makeToken(_ store: SQLiteCatalogEngine, name: String, rateLimit: Double? = nil) async throws -> String {
        let (secret, hash) = try BearerToken.generate()
        try await store.createToken(UploadToken(id: name, name: name, hash: hash, rateLimit: rateLimit, createdAt: 1))
        return secret
    }

    func headers(_ token: String? = nil, _ extra: HTTPFields = [:]) -> HTTPFields {
        var fields: HTTPFields = [TusHeader.resumable: "1.0.0", .authorization: "Bearer \(token ?? self.token)"]
        fields.append(contentsOf: extra)
        return fields
    }

    static let offsetStream: HTTPFields = [.contentType: TusHeader.offsetContentType]

    func create(
        _ client: some TestClientProtocol, length: Int, filename: String = "clip.mp4", filetype: String = "video/mp4",
        token: String? = nil
    ) async throws -> String {
        let metadata =
            "filename \(Data(filename.utf8).base64EncodedString()),filetype \(Data(filetype.utf8).base64EncodedString())"
        return try await client.execute(
            uri: "/v1/uploads", method: .post,
            headers: headers(token, [TusHeader.length: String(length), TusHeader.metadata: metadata])
        ) { response in
            #expect(response.status == .created, "\(String(buffer: response.body))")
            #expect(response.headers[TusHeader.offset] == "0")
            #expect(response.headers[TusHeader.expires]?.hasSuffix(" GMT") == true)
            #expect(response.headers[TusHeader.resumable] == "1.0.0")
            return try #require(response.headers[.location])
        }
    }

    func patch(
        _ client: some TestClientProtocol, _ location: String, offset: Int, _ bytes: [UInt8], extra: HTTPFields = [:],
        token: String? = nil
    ) async throws -> TestResponse {
        try await client.execute(
            uri: location, method: .patch,
            headers: headers(token, Self.offsetStream + [TusHeader.offset: String(offset)] + extra),
            body: ByteBuffer(bytes: bytes))
    }

    func clip() throws -> [UInt8] {
        let path = directory.file("source.mp4")
        try SyntheticVideo(width: 320, height: 240, seconds: 1.5).write(to: path)
        return Array(try Data(contentsOf: URL(fileURLWithPath: path)))
    }

    @Test func optionsAnnouncesTheProtocolWithoutAToken() async throws {
        try await app.test(.router) { client in
            try await client.execute(uri: "/v1/uploads", method: .options) { response in
                #expect(response.status == .noContent)
                #expect(response.headers[TusHeader.version] == "1.0.0")
                #expect(
                    response.headers[TusHeader.extensions]
                        == "creation,creation-with-upload,termination,expiration,checksum")
                #expect(response.headers[TusHeader.maxSize] == "50000000")
                #expect(response.headers[TusHeader.checksumAlgorithm] == "sha1,sha256")
            }
        }
    }

    @Test func anUploadInChunksBecomesAQueuedJobWithItsFileInIncoming() async throws {
        let bytes = try clip()
        try await app.test(.router) { client in
            let location = try await create(client, length: bytes.count)
            let cut = bytes.count / 3
            let first = try await patch(client, location, offset: 0, Array(bytes[..<cut]))
            #expect(first.status == .noContent)
            #expect(first.headers[TusHeader.offset] == String(cut))
            #expect(first.headers[TusHeader.reelJob] == nil)
            try await client.execute(uri: location, method: .head, headers: headers()) { response in
                #expect(response.status == .ok)
                #expect(response.headers[TusHeader.offset] == String(cut))
                #expect(response.headers[TusHeader.length] == String(bytes.count))
                #expect(response.headers[TusHeader.metadata]?.hasPrefix("filename ") == true)
                #expect(response.headers[.cacheControl] == "no-store")
            }
            let last = try await patch(client, location, offset: cut, Array(bytes[cut...]))
            #expect(last.status == .noContent)
            #expect(last.headers[TusHeader.offset] == String(bytes.count))
            let jobPath = try #require(last.headers[TusHeader.reelJob])
            let jobID = String(jobPath.dropFirst("/v1/jobs/".count))
            #expect(jobID == String(location.split(separator: "/").last ?? ""), "the upload's id is its job's")
            let job = try #require(try await store.job(id: jobID))
            #expect(job.state == .queued && job.owner == nil)
            #expect(job.sourceName == Array("clip.mp4".utf8))
            let queued = try Data(contentsOf: URL(fileURLWithPath: directory.file("library/.incoming/\(jobID)")))
            #expect(Array(queued) == bytes)
            #expect(try Directory.entries(of: directory.file("library/.uploads")).isEmpty)
            // The job answers polls with a hint of how often to ask.
            try await client.execute(uri: jobPath, method: .get) { response in
                #expect(response.status == .ok)
                #expect(response.headers[.retryAfter] == "1")
            }
            // A finished upload cannot be patched again or terminated; both name its job.
            let again = try await patch(client, location, offset: bytes.count, [1])
            #expect(again.status == .conflict && again.headers[TusHeader.reelJob] == jobPath)
            try await client.execute(uri: location, method: .delete, headers: headers()) { response in
                #expect(response.status == .conflict)
            }
        }
    }

    @Test func creationWithUploadTakesTheFirstBytesInThePost() async throws {
        let bytes = try clip()
        try await app.test(.router) { client in
            try await client.execute(
                uri: "/v1/uploads", method: .post,
                headers: headers(nil, Self.offsetStream + [TusHeader.length: String(bytes.count)]),
                body: ByteBuffer(bytes: bytes)
            ) { response in
                #expect(response.status == .created)
                #expect(response.headers[TusHeader.offset] == String(bytes.count))
                #expect(response.headers[TusHeader.reelJob]?.hasPrefix("/v1/jobs/") == true)
            }
        }
    }

    @Test func aWrongOffsetIs409AndHeadTellsWhereToResume() async throws {
        let bytes = try clip()
        try await app.test(.router) { client in
            let location = try await create(client, length: bytes.count)
            _ = try await patch(client, location, offset: 0, Array(bytes[..<1000]))
            let wrong = try await patch(client, location, offset: 500, Array(bytes[500..<1500]))
            #expect(wrong.status == .conflict)
            #expect(String(buffer: wrong.body).contains("offset_mismatch"))
            #expect(String(buffer: wrong.body).contains("1000"))
            let resumed = try await patch(client, location, offset: 1000, Array(bytes[1000...]))
            #expect(resumed.status == .noContent && resumed.headers[TusHeader.reelJob] != nil)
        }
    }

    @Test(arguments: [ContentHash.Algorithm.sha1, .sha256])
    func checksumsAreVerifiedAndAMismatchDiscardsTheChunk(algorithm: ContentHash.Algorithm) async throws {
        let bytes = try clip()
        let chunk = Array(bytes[..<4096])
        let digest = try ContentHash(algorithm)
        chunk.withUnsafeBytes { digest.update($0) }
        let good = Data(digest.finishBytes()).base64EncodedString()
        let bad = Data(repeating: 7, count: algorithm == .sha1 ? 20 : 32).base64EncodedString()
        try await app.test(.router) { client in
            let location = try await create(client, length: bytes.count)
            let refused = try await patch(
                client, location, offset: 0, chunk, extra: [TusHeader.checksum: "\(algorithm.rawValue) \(bad)"])
            #expect(refused.status.code == 460)
            #expect(String(buffer: refused.body).contains("checksum_mismatch"))
            try await client.execute(uri: location, method: .head, headers: headers()) { response in
                #expect(response.headers[TusHeader.offset] == "0")
            }
            let accepted = try await patch(
                client, location, offset: 0, chunk, extra: [TusHeader.checksum: "\(algorithm.rawValue) \(good)"])
            #expect(accepted.status == .noContent && accepted.headers[TusHeader.offset] == "4096")
            let unknown = try await patch(
                client, location, offset: 4096, [1], extra: [TusHeader.checksum: "md5 \(good)"])
            #expect(
                unknown.status == .badRequest && String(buffer: unknown.body).contains("unsupported_checksum_algorithm")
            )
        }
    }

    @Test func withoutAValidTokenEveryRequestIs401WithAChallenge() async throws {
        try await app.test(.router) { client in
            for authorization in [nil, "Bearer nope", "Basic dXNlcjpwYXNz", "Bearer "] {
                var fields: HTTPFields = [TusHeader.resumable: "1.0.0", TusHeader.length: "10"]
                if let authorization { fields[.authorization] = authorization }
                try await client.execute(uri: "/v1/uploads", method: .post, headers: fields) { response in
                    #expect(response.status == .unauthorized, "\(authorization ?? "none")")
                    #expect(response.headers[.wwwAuthenticate] == "Bearer realm=\"reel\"")
                    #expect(String(buffer: response.body).contains("\"unauthorized\""))
                }
            }
            _ = try await store.revokeToken("other", now: 2)
            try await client.execute(
                uri: "/v1/uploads", method: .post, headers: headers(otherToken, [TusHeader.length: "10"])
            ) { response in
                #expect(response.status == .unauthorized)
            }
            // Reading the feed stays public.
            try await client.execute(uri: "/v1/feed", method: .get) { response in #expect(response.status == .ok) }
        }
    }

    @Test func anotherTokensUploadIsNotFound() async throws {
        try await app.test(.router) { client in
            let location = try await create(client, length: 100)
            for method in [HTTPRequest.Method.head, .delete] {
                try await client.execute(uri: location, method: method, headers: headers(otherToken)) { response in
                    #expect(response.status == .notFound, "\(method)")
                }
            }
            let patched = try await patch(client, location, offset: 0, [1, 2, 3], token: otherToken)
            #expect(patched.status == .notFound)
        }
    }

    @Test func declaredLengthsOverTheLimitAre413BeforeAByteIsStored() async throws {
        try await app.test(.router) { client in
            for (length, type) in [(50_000_001, "video/mp4"), (20_000_001, "image/jpeg")] {
                let metadata =
                    "filename \(Data("big".utf8).base64EncodedString()),filetype \(Data(type.utf8).base64EncodedString())"
                try await client.execute(
                    uri: "/v1/uploads", method: .post,
                    headers: headers(nil, [TusHeader.length: String(length), TusHeader.metadata: metadata])
                ) { response in
                    #expect(response.status == .contentTooLarge)
                    #expect(String(buffer: response.body).contains("\"too_large\""))
                    #expect(String(buffer: response.body).contains(type.hasPrefix("image") ? "20000000" : "50000000"))
                }
            }
            #expect(try Directory.entries(of: directory.file("library/.uploads")).isEmpty)
        }
    }

    @Test(arguments: [
        ("#EXTM3U\n#EXT-X-TARGETDURATION:1\n#EXTINF:1,\nhttp://127.0.0.1:9/x.ts\n#EXT-X-ENDLIST\n", "forbidden_format"),
        ("<svg xmlns=\"http://www.w3.org/2000/svg\"><script>alert(1)</script></svg>", "forbidden_format"),
        ("just some text, not a video", "unsupported_format"),
    ])
    func refusedFormatsAre422AndThePartialUploadIsDeleted(content: String, code: String) async throws {
        let bytes = Array(content.utf8)
        try await app.test(.router) { client in
            let location = try await create(client, length: bytes.count)
            let refused = try await patch(client, location, offset: 0, bytes)
            #expect(refused.status == .unprocessableContent)
            #expect(String(buffer: refused.body).contains("\"\(code)\""))
            #expect(String(buffer: refused.body).contains("clip.mp4"))
            try await client.execute(uri: location, method: .head, headers: headers()) { response in
                #expect(response.status == .notFound)
            }
            #expect(try Directory.entries(of: directory.file("library/.uploads")).isEmpty)
            #expect(try await store.jobCounts().values.reduce(0, +) == 0)
        }
    }

    @Test func badHeadersAreTheirOwn4xxNeverA500() async throws {
        try await app.test(.router) { client in
            let cases: [(HTTPFields, HTTPResponse.Status, String)] = [
                ([TusHeader.length: "ten"], .badRequest, "invalid_upload_length"),
                ([TusHeader.length: "-1"], .badRequest, "invalid_upload_length"),
                ([TusHeader.deferLength: "1"], .badRequest, "invalid_upload_length"),
                ([TusHeader.length: "0"], .unprocessableContent, "empty_file"),
                (
                    [TusHeader.length: "10", TusHeader.metadata: "filename !!notbase64"], .badRequest,
                    "invalid_metadata"
                ),
                ([TusHeader.length: "10", TusHeader.metadata: "a b c"], .badRequest, "invalid_metadata"),
            ]
            for (extra, status, code) in cases {
                try await client.execute(uri: "/v1/uploads", method: .post, headers: headers(nil, extra)) { response in
                    #expect(response.status == status, "\(extra)")
                    #expect(
                        String(buffer: response.body).contains("\"\(code)\""),
                        "\(extra): \(String(buffer: response.body))")
                }
            }
            try await client.execute(
                uri: "/v1/uploads", method: .post,
                headers: [.authorization: "Bearer \(token)", TusHeader.length: "10"]
            ) { response in
                #expect(response.status == .preconditionFailed)
                #expect(response.headers[TusHeader.version] == "1.0.0")
            }
            let location = try await create(client, length: 10)
            try await client.execute(
                uri: location, method: .patch,
                headers: headers(nil, [TusHeader.offset: "0", .contentType: "text/plain"]),
                body: ByteBuffer(bytes: [1])
            ) { response in
                #expect(response.status == .unsupportedMediaType)
            }
            let tooMuch = try await patch(client, location, offset: 0, [UInt8](repeating: 0x47, count: 11))
            #expect(tooMuch.status == .badRequest && String(buffer: tooMuch.body).contains("exceeds_upload_length"))
            let noOffset = try await client.execute(
                uri: location, method: .patch, headers: headers(nil, Self.offsetStream), body: ByteBuffer(bytes: [1]))
            #expect(noOffset.status == .badRequest && String(buffer: noOffset.body).contains("invalid_offset"))
            try await client.execute(uri: "/v1/uploads/../../etc", method: .head, headers: headers()) { response in
                #expect(response.status == .notFound)
            }
        }
    }

    @Test func terminationRemovesThePartialUpload() async throws {
        let bytes = try clip()
        try await app.test(.router) { client in
            let location = try await create(client, length: bytes.count)
            _ = try await patch(client, location, offset: 0, Array(bytes[..<2000]))
            try await client.execute(uri: location, method: .delete, headers: headers()) { response in
                #expect(response.status == .noContent)
            }
            try await client.execute(uri: location, method: .head, headers: headers()) { response in
                #expect(response.status == .notFound)
            }
            #expect(try Directory.entries(of: directory.file("library/.uploads")).isEmpty)
        }
    }

    @Test func expiredPartialUploadsAreRemovedAndFinishedOnesKept() async throws {
        let bytes = try clip()
        try await app.test(.router) { client in
            let partial = try await create(client, length: bytes.count)
            _ = try await patch(client, partial, offset: 0, Array(bytes[..<2000]))
            let finished = try await create(client, length: bytes.count)
            _ = try await patch(client, finished, offset: 0, bytes)
            let later = Int64(Date().timeIntervalSince1970 * 1000) + 25 * 3600 * 1000
            #expect(try await desk.removeExpired(now: later) == 1)
            #expect(try await store.upload(id: String(partial.split(separator: "/").last!)) == nil)
            #expect(try await store.upload(id: String(finished.split(separator: "/").last!)) != nil)
            #expect(try Directory.entries(of: directory.file("library/.uploads")).isEmpty)
        }
    }

    @Test func aTokensRateLimitAnswers429WithRetryAfter() async throws {
        // burst 1, one token per 1000 s
        let limited = try await Self.makeToken(store, name: "limited", rateLimit: 0.001)
        try await app.test(.router) { client in
            _ = try await create(client, length: 10, token: limited)
            try await client.execute(
                uri: "/v1/uploads", method: .post, headers: headers(limited, [TusHeader.length: "10"])
            ) { response in
                #expect(response.status == .tooManyRequests)
                #expect(response.headers[.retryAfter].flatMap { Int($0) }.map { (1...1000).contains($0) } == true)
            }
            // Other tokens are not held back.
            _ = try await create(client, length: 10)
        }
    }

    @Test func aTokensTinyRateLimitGetsARetryAfterThatFits() async throws {
        // One request per 10^300 s: the wait is past any Int, and converting it used to trap the server.
        let limited = try await Self.makeToken(store, name: "tiny", rateLimit: 1e-300)
        try await app.test(.router) { client in
            _ = try await create(client, length: 10, token: limited)
            try await client.execute(
                uri: "/v1/uploads", method: .post, headers: headers(limited, [TusHeader.length: "10"])
            ) { response in
                #expect(response.status == .tooManyRequests)
                #expect(response.headers[.retryAfter] == String(Int32.max))
            }
        }
    }

    @Test(arguments: [0.0, -1.0])
    func aTokenWhoseStoredRateAdmitsNothingIsRefusedByName(rate: Double) async throws {
        // reel token create stores only positive rates; a row edited to another used to trap TokenBucket.
        let limited = try await Self.makeToken(store, name: "stopped", rateLimit: rate)
        try await app.test(.router) { client in
            try await client.execute(
                uri: "/v1/uploads", method: .post, headers: headers(limited, [TusHeader.length: "10"])
            ) { response in
                #expect(response.status == .tooManyRequests)
                let body = String(buffer: response.body)
                #expect(body.contains("rate_limited"), "\(body)")
                #expect(
                    body.contains("token \\\"stopped\\\" has a rate limit of \(rate) requests per second"), "\(body)")
            }
            // Other tokens are not held back.
            _ = try await create(client, length: 10)
        }
    }

    @Test func corsLetsTheNamedOriginReadAndUploadAndNoOtherOrigin() async throws {
        var server = self.server
        server.corsOrigins = ["https://app.example.com"]
        try await Application(router: server.router()).test(.router) { client in
            try await client.execute(
                uri: "/v1/uploads", method: .options,
                headers: [
                    .origin: "https://app.example.com", .accessControlRequestMethod: "PATCH",
                    .accessControlRequestHeaders: "upload-offset, tus-resumable",
                ]
            ) { response in
                #expect(response.status == .noContent)
                #expect(response.headers[.accessControlAllowOrigin] == "https://app.example.com")
                #expect(response.headers[.accessControlAllowMethods]?.contains("PATCH") == true)
                #expect(response.headers[.accessControlAllowHeaders]?.contains("Upload-Offset") == true)
            }
            try await client.execute(uri: "/v1/feed", method: .get, headers: [.origin: "https://app.example.com"]) {
                response in
                #expect(response.headers[.accessControlAllowOrigin] == "https://app.example.com")
                #expect(response.headers[.accessControlExposeHeaders]?.contains("Upload-Offset") == true)
            }
            try await client.execute(
                uri: "/media/videos/none/master.m3u8", method: .get, headers: [.origin: "https://app.example.com"]
            ) { response in
                #expect(response.status == .notFound)
                #expect(response.headers[.accessControlAllowOrigin] == "https://app.example.com")
            }
            try await client.execute(uri: "/v1/feed", method: .get, headers: [.origin: "https://evil.example"]) {
                response in
                #expect(response.headers[.accessControlAllowOrigin] == nil)
            }
        }
    }
}

private func + (lhs: HTTPFields, rhs: HTTPFields) -> HTTPFields {
    var fields = lhs
    fields.append(contentsOf: rhs)
    return fields
}
