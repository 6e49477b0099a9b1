import FileSystem
import Foundation
import MediaFixtures
import Synchronization
import TestTraits
import Testing
import UploadClient

@Suite(.offThePool, .timeLimit(.minutes(5))) struct TusUploaderTests {
    let server = URL(string: "http://reel.test:8080")!

    /// Another client (or an earlier run) sends the upload's first bytes straight to the server.
    func sendFirstBytes(_ bytes: [UInt8], to url: URL, on tus: TusTestServer) async throws {
        _ = try await tus.send(
            HTTPRequest(
                method: "PATCH", url: url,
                headers: [
                    "Tus-Resumable": "1.0.0", "Authorization": "Bearer secret", "Upload-Offset": "0",
                    "Content-Type": "application/offset+octet-stream",
                ],
                body: bytes))
    }

    func makeUploader(
        _ transport: any HTTPTransport, sleeper: RecordingSleeper = RecordingSleeper(), chunk: Int = 1000,
        token: String = "secret"
    ) -> TusUploader {
        TusUploader(server: server, token: token, transport: transport, sleeper: sleeper, chunkBytes: chunk)
    }

    @Test func thePostsFieldsFollowTheNameAndTypeInTheMetadata() async throws {
        let tus = TusTestServer()
        _ = try await makeUploader(tus).create(
            length: 10, filename: "clip.mp4", filetype: "video/mp4",
            post: [("caption", "a,b\nc 🎉"), ("creator", "alice")])
        let pairs = (tus.recorded[0].header("Upload-Metadata") ?? "").split(separator: ",").map {
            $0.split(separator: " ").map(String.init)
        }
        #expect(pairs.map(\.[0]) == ["filename", "filetype", "caption", "creator"])
        #expect(pairs[2].count == 2 && Data(base64Encoded: pairs[2][1]) == Data("a,b\nc 🎉".utf8))
    }

    @Test func sendsTheWholeFileInChunksWithOffsetsAndChecksums() async throws {
        let scratch = try TemporaryDirectory()
        let content = bytes(2500)
        let path = try scratch.write("clip.mp4", content)
        let tus = TusTestServer()
        let uploader = makeUploader(tus)

        let url = try await uploader.create(length: 2500, filename: "clip.mp4", filetype: "video/mp4")
        #expect(url.absoluteString == "http://reel.test:8080/v1/uploads/u1")
        let completion = try await uploader.send(file: path, length: 2500, to: url, from: 0)

        #expect(completion?.jobPath == "/v1/jobs/job-1")
        #expect(tus.upload("u1")?.bytes == content)
        let post = tus.recorded[0]
        #expect(post.method == "POST" && post.url.path == "/v1/uploads")
        #expect(post.header("Upload-Length") == "2500")
        #expect(
            post.header("Upload-Metadata")
                == "filename \(Data("clip.mp4".utf8).base64EncodedString()),filetype \(Data("video/mp4".utf8).base64EncodedString())"
        )
        #expect(post.header("Authorization") == "Bearer secret")
        let patches = tus.recorded.filter { $0.method == "PATCH" }
        #expect(patches.map { $0.header("Upload-Offset") } == ["0", "1000", "2000"])
        #expect(patches.map(\.body.count) == [1000, 1000, 500])
        for patch in patches {
            #expect(patch.header("Content-Type") == "application/offset+octet-stream")
            #expect(patch.header("Tus-Resumable") == "1.0.0")
            #expect(
                patch.header("Upload-Checksum") == "sha256 "
                    + Data(try ContentHash.digest(of: patch.body)).base64EncodedString())
        }
    }

    @Test func aDroppedAnswerIsFollowedByHeadAndNoByteIsSentTwice() async throws {
        let scratch = try TemporaryDirectory()
        let content = bytes(3000)
        let path = try scratch.write("clip.mp4", content)
        let tus = TusTestServer()
        let sleeper = RecordingSleeper()
        let uploader = makeUploader(tus, sleeper: sleeper)
        let url = try await uploader.create(length: 3000, filename: "clip.mp4", filetype: "video/mp4")
        tus.inject(.dropAfterStoring, on: "PATCH")

        let completion = try await uploader.send(file: path, length: 3000, to: url, from: 0)

        #expect(completion?.jobPath == "/v1/jobs/job-1")
        #expect(tus.upload("u1")?.bytes == content)
        let methods = tus.recorded.dropFirst().map { "\($0.method) \($0.header("Upload-Offset") ?? "")" }
        #expect(methods == ["PATCH 0", "HEAD ", "PATCH 1000", "PATCH 2000"])
        #expect(sleeper.delays == [0.5])
    }

    @Test func aLostAnswerToTheLastChunkFindsTheJobWhenTheServerNamesIt() async throws {
        let scratch = try TemporaryDirectory()
        let path = try scratch.write("clip.mp4", bytes(1500))
        let tus = TusTestServer()
        tus.namesJobWhenFinished = true
        let uploader = makeUploader(tus, chunk: 2000)
        let url = try await uploader.create(length: 1500, filename: "clip.mp4", filetype: "video/mp4")
        tus.inject(.dropAfterStoring, on: "PATCH")

        let completion = try await uploader.send(file: path, length: 1500, to: url, from: 0)

        #expect(completion?.jobPath == "/v1/jobs/job-1")
        #expect(tus.recorded.filter { $0.method == "PATCH" }.count == 1)
    }

    @Test func aFinishedUploadWhoseJobNobodyNamesIsAFailureSayingSo() async throws {
        let scratch = try TemporaryDirectory()
        let path = try scratch.write("clip.mp4", bytes(1500))
        let tus = TusTestServer()
        let uploader = makeUploader(tus, chunk: 2000)
        let url = try await uploader.create(length: 1500, filename: "clip.mp4", filetype: "video/mp4")
        tus.inject(.dropAfterStoring, on: "PATCH")

        let error = await #expect(throws: UploadError.self) {
            _ = try await uploader.send(file: path, length: 1500, to: url, from: 0)
        }

        #expect(error?.kind == .failed(code: "job_unknown"))
        #expect(error?.message.contains(url.absoluteString) == true)
        #expect(tus.upload("u1")?.bytes.count == 1500)
    }

    @Test func a409UploadFinishedNamingTheJobCompletesTheUpload() async throws {
        let scratch = try TemporaryDirectory()
        let content = bytes(1500)
        let path = try scratch.write("clip.mp4", content)
        let tus = TusTestServer()
        tus.namesJobWhenFinished = true
        let uploader = makeUploader(tus, chunk: 2000)
        let url = try await uploader.create(length: 1500, filename: "clip.mp4", filetype: "video/mp4")
        // An interrupted earlier run's PATCH finished on the server after this run's HEAD said 0.
        try await sendFirstBytes(content, to: url, on: tus)

        let completion = try await uploader.send(file: path, length: 1500, to: url, from: 0)

        #expect(completion?.jobPath == "/v1/jobs/job-1")
        #expect(tus.upload("u1")?.bytes == content)
    }

    @Test func anOffsetMismatchIsResolvedWithHead() async throws {
        let scratch = try TemporaryDirectory()
        let content = bytes(2000)
        let path = try scratch.write("clip.mp4", content)
        let tus = TusTestServer()
        let uploader = makeUploader(tus)
        let url = try await uploader.create(length: 2000, filename: "clip.mp4", filetype: "video/mp4")
        // Another client (or an earlier run) already sent the first chunk.
        try await sendFirstBytes(Array(content.prefix(1000)), to: url, on: tus)

        let completion = try await uploader.send(file: path, length: 2000, to: url, from: 0)

        #expect(completion != nil)
        #expect(tus.upload("u1")?.bytes == content)
        let afterManual = tus.recorded.dropFirst(2).map { "\($0.method) \($0.header("Upload-Offset") ?? "")" }
        #expect(afterManual == ["PATCH 0", "HEAD ", "PATCH 1000"])
    }

    @Test func aChecksumMismatchResendsTheSameChunk() async throws {
        let scratch = try TemporaryDirectory()
        let path = try scratch.write("clip.mp4", bytes(1500))
        let tus = TusTestServer()
        let sleeper = RecordingSleeper()
        let uploader = makeUploader(tus, sleeper: sleeper)
        let url = try await uploader.create(length: 1500, filename: "clip.mp4", filetype: "video/mp4")
        tus.inject(.respond(TusTestServer.error(460, "checksum_mismatch", "bytes damaged in transit")), on: "PATCH")

        _ = try await uploader.send(file: path, length: 1500, to: url, from: 0)

        let patches = tus.recorded.filter { $0.method == "PATCH" }.map { $0.header("Upload-Offset") }
        #expect(patches == ["0", "0", "1000"])
        #expect(tus.upload("u1")?.bytes.count == 1500)
        #expect(sleeper.delays == [0.5])
    }

    @Test func rateLimitingWaitsAsRetryAfterSays() async throws {
        let scratch = try TemporaryDirectory()
        let path = try scratch.write("clip.mp4", bytes(1500))
        let tus = TusTestServer()
        let sleeper = RecordingSleeper()
        let uploader = makeUploader(tus, sleeper: sleeper)
        tus.inject(
            .respond(TusTestServer.error(429, "rate_limited", "slow down", headers: ["Retry-After": "7"])), on: "POST")
        let url = try await uploader.create(length: 1500, filename: "clip.mp4", filetype: "video/mp4")
        tus.inject(.respond(TusTestServer.error(503, "busy", "busy", headers: ["Retry-After": "3"])), on: "PATCH")
        tus.inject(
            .respond(TusTestServer.error(429, "rate_limited", "slow down", headers: ["Retry-After": "2"])), on: "HEAD")

        let completion = try await uploader.send(file: path, length: 1500, to: url, from: 0)

        #expect(completion != nil)
        #expect(sleeper.delays == [7, 3, 2])
        #expect(tus.upload("u1")?.bytes.count == 1500)
    }

    /// A 429 on a PATCH stored nothing: the client waits as told and sends the same chunk again, without a HEAD
    /// that would spend the request budget the server just said was spent.
    @Test func aRateLimitedPatchIsSentAgainAfterRetryAfterWithoutAHead() async throws {
        let scratch = try TemporaryDirectory()
        let path = try scratch.write("clip.mp4", bytes(1500))
        let tus = TusTestServer()
        let sleeper = RecordingSleeper()
        let uploader = makeUploader(tus, sleeper: sleeper)
        let url = try await uploader.create(length: 1500, filename: "clip.mp4", filetype: "video/mp4")
        tus.inject(
            .respond(TusTestServer.error(429, "rate_limited", "slow down", headers: ["Retry-After": "4"])), on: "PATCH")

        let completion = try await uploader.send(file: path, length: 1500, to: url, from: 0)

        #expect(completion != nil)
        #expect(sleeper.delays == [4])
        #expect(tus.recorded.map(\.method) == ["POST", "PATCH", "PATCH", "PATCH"])
        #expect(tus.upload("u1")?.bytes.count == 1500)
    }

    @Test func retriesBackOffExponentiallyThenReportTheServerUnavailable() async throws {
        let transport = ScriptedTransport(Array(repeating: .fail, count: 5))
        let sleeper = RecordingSleeper()
        let uploader = TusUploader(
            server: server, token: "secret", transport: transport, sleeper: sleeper,
            backoff: RetryBackoff(initialSeconds: 0.5, capSeconds: 4, maxAttempts: 4))

        let error = await #expect(throws: UploadError.self) {
            _ = try await uploader.create(length: 10, filename: "a.mp4", filetype: "video/mp4")
        }

        #expect(error?.kind == .unavailable)
        #expect(error?.exitCode == 69)
        #expect(error?.message.contains("POST http://reel.test:8080/v1/uploads") == true)
        #expect(sleeper.delays == [0.5, 1, 2, 4])
        #expect(transport.recorded.count == 5)
    }

    @Test func aRefusedTokenIsExit77NamingTheServer() async throws {
        let tus = TusTestServer(token: "right")
        let uploader = makeUploader(tus, token: "wrong")

        let error = await #expect(throws: UploadError.self) {
            _ = try await uploader.create(length: 10, filename: "a.mp4", filetype: "video/mp4")
        }

        #expect(error?.kind == .unauthorized)
        #expect(error?.exitCode == 77)
        #expect(error?.message.contains("http://reel.test:8080") == true)
        #expect(error?.message.contains("refused the token") == true)
    }

    @Test(arguments: [(413, "too_large"), (422, "forbidden_format"), (422, "unsupported_format")])
    func serverRefusalsAreRejectionsWithTheReasonCode(status: Int, code: String) async throws {
        let transport = ScriptedTransport([.answer(TusTestServer.error(status, code, "refused by policy"))])
        let uploader = makeUploader(transport)

        let error = await #expect(throws: UploadError.self) {
            _ = try await uploader.create(length: 60_000_000, filename: "a.mp4", filetype: "video/mp4")
        }

        #expect(error?.kind == .rejected(code: code))
        #expect(error?.exitCode == 65)
        #expect(error?.message.contains("refused by policy") == true)
    }

    @Test func aRejectionWhileSendingStopsTheUpload() async throws {
        let scratch = try TemporaryDirectory()
        let path = try scratch.write("clip.mp4", bytes(1500))
        let tus = TusTestServer()
        let uploader = makeUploader(tus)
        let url = try await uploader.create(length: 1500, filename: "clip.mp4", filetype: "video/mp4")
        tus.inject(
            .respond(TusTestServer.error(422, "forbidden_format", "an HLS playlist is never opened")), on: "PATCH")

        let error = await #expect(throws: UploadError.self) {
            _ = try await uploader.send(file: path, length: 1500, to: url, from: 0)
        }

        #expect(error?.kind == .rejected(code: "forbidden_format"))
        #expect(tus.recorded.filter { $0.method == "PATCH" }.count == 1)
    }

    @Test func headOnAVanishedUploadSaysSo() async throws {
        let tus = TusTestServer()
        let uploader = makeUploader(tus)
        #expect(try await uploader.state(of: URL(string: "http://reel.test:8080/v1/uploads/nope")!) == nil)
    }

    @Test func continuesFromAGivenOffset() async throws {
        let scratch = try TemporaryDirectory()
        let content = bytes(2500)
        let path = try scratch.write("clip.mp4", content)
        let tus = TusTestServer()
        let uploader = makeUploader(tus)
        let url = try await uploader.create(length: 2500, filename: "clip.mp4", filetype: "video/mp4")
        try await sendFirstBytes(Array(content.prefix(1200)), to: url, on: tus)

        let offsets = OffsetLog()
        _ = try await uploader.send(file: path, length: 2500, to: url, from: 1200) { offsets.append($0) }

        #expect(tus.upload("u1")?.bytes == content)
        #expect(
            tus.recorded.filter { $0.method == "PATCH" }.dropFirst().map { $0.header("Upload-Offset") } == [
                "1200", "2200",
            ])
        #expect(offsets.values == [1200, 2200, 2500])
    }

    @Test func cancellationIsAnInterruption() async throws {
        let scratch = try TemporaryDirectory()
        let path = try scratch.write("clip.mp4", bytes(1500))
        let tus = TusTestServer()
        let uploader = makeUploader(tus)
        let url = try await uploader.create(length: 1500, filename: "clip.mp4", filetype: "video/mp4")
        tus.inject(.cancel, on: "PATCH")

        let error = await #expect(throws: UploadError.self) {
            _ = try await uploader.send(file: path, length: 1500, to: url, from: 0)
        }

        #expect(error?.kind == .interrupted)
        #expect(error?.exitCode == 130)
    }
}

final class OffsetLog: Sendable {
    private let list = Mutex<[Int64]>([])
    var values: [Int64] { list.withLock { $0 } }
    func append(_ value: Int64) { list.withLock { $0.append(value) } }
}
