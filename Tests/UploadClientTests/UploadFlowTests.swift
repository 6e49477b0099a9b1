import FileSystem
import Foundation
import Ingest
import MediaFixtures
import MediaModel
import Synchronization
import TestTraits
import Testing
import Transcode
import UploadClient

@Suite(.offThePool, .timeLimit(.minutes(5))) struct UploadFlowTests {
    let server = URL(string: "http://reel.test")!

    func makeFlow(
        _ tus: TusTestServer, store: ResumeStore, quality: CompressPreset.Quality = .medium, wait: Bool = true,
        chunk: Int = 64_000
    ) -> UploadFlow {
        let sleeper = RecordingSleeper()
        return UploadFlow(
            source: UploadSource(),
            uploader: TusUploader(server: server, token: "secret", transport: tus, sleeper: sleeper, chunkBytes: chunk),
            poller: JobPoller(server: server, transport: tus, sleeper: sleeper),
            store: store, quality: quality, waitsForJob: wait
        )
    }

    static func job(_ state: String, video: Bool = true) -> HTTPResponse {
        let videoURL = state == "published" && video ? #""/v1/videos/v1""# : "null"
        return HTTPResponse(
            status: 200, headers: ["Retry-After": "1"],
            body: Array(
                #"""
                {"id":"job-1","kind":"video","state":"\#(state)","progress_percent":\#(state == "published" ? 100 : 0),"reason":null,"error":null,"media_id":"v1","video_url":\#(videoURL)}
                """#.utf8))
    }

    func entries(_ store: ResumeStore) -> [String] {
        ((try? Directory.entries(of: store.directory)) ?? []).map { String(decoding: $0.name, as: UTF8.self) }.sorted()
    }

    @Test func aSmallVideoThatFitsIsUploadedAsIsAndFollowedToItsMasterPlaylist() async throws {
        let scratch = try TemporaryDirectory()
        let source = scratch.file("clip.mp4")
        try SyntheticVideo(width: 640, height: 360, seconds: 2).write(to: source)
        let original = try ReadOnlyFile.contents(of: source)
        let tus = TusTestServer()
        tus.setJobAnswers([Self.job("queued"), Self.job("processing"), Self.job("published")])
        let store = ResumeStore(directory: scratch.file("cache"))
        let log = EventLog()

        let result = try await makeFlow(tus, store: store).run(path: source) { log.append($0) }

        #expect(tus.upload("u1")?.bytes == original)
        #expect(result.outcome?.masterURL?.absoluteString == "http://reel.test/media/videos/v1/master.m3u8")
        #expect(result.jobURL.absoluteString == "http://reel.test/v1/jobs/job-1")
        guard case let .plan(plan) = log.events.first else {
            Issue.record("no plan event first")
            return
        }
        #expect(plan.action == .uploadAsIs)
        #expect(!log.events.contains { if case .compressing = $0 { true } else { false } })
        #expect(
            log.events.last
                == .done(
                    state: "published", reason: nil, mediaID: "v1",
                    masterURL: "http://reel.test/media/videos/v1/master.m3u8"))
        #expect(entries(store).isEmpty)
    }

    @Test func anImageIsUploadedAsIsWithItsType() async throws {
        let scratch = try TemporaryDirectory()
        let source = try scratch.write("photo.jpg", try SyntheticPhoto(width: 320, height: 240).jpeg())
        let tus = TusTestServer()
        let store = ResumeStore(directory: scratch.file("cache"))

        let result = try await makeFlow(tus, store: store, wait: false).run(path: source) { _ in }

        #expect(result.outcome == nil)
        #expect(tus.upload("u1")?.bytes == (try ReadOnlyFile.contents(of: source)))
        #expect(
            tus.recorded[0].header("Upload-Metadata")?.contains(Data("image/jpeg".utf8).base64EncodedString()) == true)
        #expect(!tus.recorded.contains { $0.method == "GET" })
    }

    @Test func anInterruptedUploadResumesOnTheNextRunFromTheServersOffset() async throws {
        let scratch = try TemporaryDirectory()
        let source = scratch.file("clip.mp4")
        try SyntheticVideo(width: 640, height: 360, seconds: 2).write(to: source)
        let size = try ReadOnlyFile(path: source).size
        let tus = TusTestServer()
        tus.setJobAnswers([Self.job("published")])
        let store = ResumeStore(directory: scratch.file("cache"))
        let chunk = Int(size / 3) + 1
        // First run: the second PATCH is interrupted (Ctrl-C).
        let first = makeFlow(tus, store: store, chunk: chunk)
        let interrupting = InterruptAfter(tus, patches: 1)
        let firstFlow = UploadFlow(
            source: first.source,
            uploader: TusUploader(
                server: server, token: "secret", transport: interrupting,
                sleeper: RecordingSleeper(), chunkBytes: chunk),
            poller: first.poller, store: store, quality: .medium)
        let error = await #expect(throws: UploadError.self) { _ = try await firstFlow.run(path: source) { _ in } }
        #expect(error?.kind == .interrupted)
        #expect(entries(store).count == 1)
        #expect(tus.upload("u1")?.bytes.count == chunk)

        let log = EventLog()
        let result = try await makeFlow(tus, store: store, chunk: chunk).run(path: source) { log.append($0) }

        #expect(log.events.contains(.resumed(uploadURL: "http://reel.test/v1/uploads/u1", offset: Int64(chunk))))
        #expect(tus.recorded.filter { $0.method == "POST" }.count == 1)
        #expect(tus.upload("u1")?.bytes == (try ReadOnlyFile.contents(of: source)))
        #expect(result.outcome?.masterURL != nil)
        #expect(entries(store).isEmpty)
    }

    @Test func anUploadTheServerForgotIsStartedAgain() async throws {
        let scratch = try TemporaryDirectory()
        let source = try scratch.write("photo.jpg", try SyntheticPhoto(width: 320, height: 240).jpeg())
        let tus = TusTestServer()
        let store = ResumeStore(directory: scratch.file("cache"))
        let first = UploadFlow(
            source: UploadSource(),
            uploader: TusUploader(
                server: server, token: "secret",
                transport: InterruptAfter(tus, patches: 0), sleeper: RecordingSleeper(), chunkBytes: 10_000),
            poller: JobPoller(server: server, transport: tus), store: store, quality: .medium, waitsForJob: false)
        await #expect(throws: UploadError.self) { _ = try await first.run(path: source) { _ in } }
        tus.forgetAllUploads()  // a server whose state was reset: HEAD answers 404

        let log = EventLog()
        _ = try await makeFlow(tus, store: store, wait: false, chunk: 10_000).run(path: source) { log.append($0) }

        #expect(tus.recorded.filter { $0.method == "HEAD" }.count == 1)
        #expect(log.events.contains(.created(uploadURL: "http://reel.test/v1/uploads/u2")))
        #expect(tus.upload("u2")?.bytes == (try ReadOnlyFile.contents(of: source)))
        #expect(entries(store).isEmpty)
    }

    @Test func aVideoThatDoesNotFitIsCompressedAndTheCompressedBytesAreSent() async throws {
        let scratch = try TemporaryDirectory()
        let source = scratch.file("fast.mp4")
        var clip = SyntheticVideo(width: 320, height: 180, frameRate: (60, 1), seconds: 1)
        clip.quality = 20
        try clip.write(to: source)
        let tus = TusTestServer()
        let store = ResumeStore(directory: scratch.file("cache"))
        let log = EventLog()

        _ = try await makeFlow(tus, store: store, quality: .low, wait: false).run(path: source) { log.append($0) }

        guard case let .plan(plan) = log.events.first else {
            Issue.record("no plan event first")
            return
        }
        #expect(plan.action == .compress(.low))
        #expect(log.events.contains(.compressing(percent: 100)))
        let uploaded = try #require(tus.upload("u1")?.bytes)
        let check = scratch.file("uploaded.mp4")
        try AtomicFile.write(uploaded, to: check, durable: false)
        let info = try AdmissionPolicy().check(path: check).info
        #expect(info.video?.codec == "h264")
        #expect((info.video?.averageFrameRate ?? 0) <= 30.5)
        #expect(
            tus.recorded[0].header("Upload-Metadata")?.hasPrefix(
                "filename \(Data("fast.mp4".utf8).base64EncodedString()),") == true)
        #expect(entries(store).isEmpty)  // entry and compressed file are gone once uploaded
    }

    @Test func aCompressedUploadResumesWithTheSameCompressedBytes() async throws {
        let scratch = try TemporaryDirectory()
        let source = scratch.file("fast.mp4")
        try SyntheticVideo(width: 320, height: 180, frameRate: (60, 1), seconds: 1).write(to: source)
        let tus = TusTestServer()
        let store = ResumeStore(directory: scratch.file("cache"))
        let first = UploadFlow(
            source: UploadSource(),
            uploader: TusUploader(
                server: server, token: "secret",
                transport: InterruptAfter(tus, patches: 1), sleeper: RecordingSleeper(), chunkBytes: 5_000),
            poller: JobPoller(server: server, transport: tus), store: store, quality: .low, waitsForJob: false)
        await #expect(throws: UploadError.self) { _ = try await first.run(path: source) { _ in } }
        #expect(entries(store).filter { $0.hasSuffix(".mp4") }.count == 1)
        #expect(entries(store).filter { $0.hasSuffix(".json") }.count == 1)

        let log = EventLog()
        _ = try await makeFlow(tus, store: store, quality: .low, wait: false, chunk: 5_000).run(path: source) {
            log.append($0)
        }

        #expect(!log.events.contains { if case .compressing = $0 { true } else { false } })
        #expect(log.events.contains(.resumed(uploadURL: "http://reel.test/v1/uploads/u1", offset: 5_000)))
        #expect(tus.upload("u1").map { Int64($0.bytes.count) == $0.length } == true)
        #expect(entries(store).isEmpty)
    }

    @Test func aVideoOverTheLimitIsRefusedBeforeAnyRequest() async throws {
        let scratch = try TemporaryDirectory()
        let source = scratch.file("huge.mp4")
        try SyntheticVideo(width: 160, height: 90, seconds: 1).write(to: source)
        let handle = try #require(FileHandle(forWritingAtPath: source))
        try handle.truncate(atOffset: 60_000_000)  // sparse: the header still says mp4
        try handle.close()
        let tus = TusTestServer()

        let error = await #expect(throws: UploadError.self) {
            _ = try await makeFlow(tus, store: ResumeStore(directory: scratch.file("cache"))).run(path: source) { _ in }
        }

        #expect(error?.kind == .rejected(code: "too_large"))
        #expect(error?.message.contains(source) == true)
        #expect(error?.message.contains("60.0 MB") == true)
        #expect(tus.recorded.isEmpty)
    }

    @Test func aForbiddenFileIsRefusedLocallyWithItsReason() async throws {
        let scratch = try TemporaryDirectory()
        let source = try scratch.write("list.mp4", text: "#EXTM3U\n#EXT-X-VERSION:3\nhttp://evil.test/a.ts\n")
        let tus = TusTestServer()

        let error = await #expect(throws: UploadError.self) {
            _ = try await makeFlow(tus, store: ResumeStore(directory: scratch.file("cache"))).run(path: source) { _ in }
        }

        #expect(error?.kind == .rejected(code: "forbidden_format"))
        #expect(error?.exitCode == 65)
        #expect(tus.recorded.isEmpty)
    }

    @Test func aRejectedJobEndsTheRunWithExit65() async throws {
        let scratch = try TemporaryDirectory()
        let source = try scratch.write("photo.jpg", try SyntheticPhoto(width: 320, height: 240).jpeg())
        let tus = TusTestServer()
        tus.setJobAnswers([
            HTTPResponse(
                status: 200,
                body: Array(
                    #"""
                    {"id":"job-1","kind":"image","state":"rejected","progress_percent":0,"reason":"decode_error","error":"the picture does not decode","media_id":null,"video_url":null}
                    """#.utf8))
        ])

        let error = await #expect(throws: UploadError.self) {
            _ = try await makeFlow(tus, store: ResumeStore(directory: scratch.file("cache"))).run(path: source) { _ in }
        }

        #expect(error?.kind == .rejected(code: "decode_error"))
    }
}

/// Passes requests to the test server and, after `patches` PATCHes went through, answers the next one with a
/// cancellation, as Ctrl-C does.
final class InterruptAfter: HTTPTransport, Sendable {
    private let server: TusTestServer
    private let remaining: Mutex<Int>

    init(_ server: TusTestServer, patches: Int) {
        self.server = server
        remaining = Mutex(patches)
    }

    func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        if request.method == "PATCH" {
            let cancel = remaining.withLock { remaining in
                defer { remaining -= 1 }
                return remaining <= 0
            }
            if cancel { throw CancellationError() }
        }
        return try await server.send(request)
    }
}
