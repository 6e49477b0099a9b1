import Foundation
import TestTraits
import Testing
import UploadClient

@Suite(.offThePool, .timeLimit(.minutes(5))) struct JobPollerTests {
    let server = URL(string: "https://reel.test")!

    static func job(
        _ state: String, percent: Int = 0, reason: String? = nil, error: String? = nil, video: String? = nil,
        retryAfter: String? = nil
    ) -> ScriptedTransport.Step {
        var fields = [#""id":"j1""#, #""kind":"video""#, #""state":"\#(state)""#, #""progress_percent":\#(percent)"#]
        fields.append(reason.map { #""reason":"\#($0)""# } ?? #""reason":null"#)
        fields.append(error.map { #""error":"\#($0)""# } ?? #""error":null"#)
        fields.append(#""media_id":\#(video == nil ? "null" : "\"v1\"")"#)
        fields.append(video.map { #""video_url":"\#($0)""# } ?? #""video_url":null"#)
        var headers = ["Content-Type": "application/json"]
        if let retryAfter { headers["Retry-After"] = retryAfter }
        return .answer(
            HTTPResponse(status: 200, headers: headers, body: Array(("{" + fields.joined(separator: ",") + "}").utf8)))
    }

    @Test func publishedVideoGivesTheAbsoluteMasterURL() async throws {
        let transport = ScriptedTransport([
            Self.job("queued", retryAfter: "1"),
            Self.job("processing", percent: 40, retryAfter: "2"),
            Self.job("published", percent: 100, video: "/v1/videos/v1"),
            .answer(
                HTTPResponse(status: 200, body: Array(#"{"id":"v1","master_url":"/media/videos/v1/master.m3u8"}"#.utf8))
            ),
        ])
        let sleeper = RecordingSleeper()
        let poller = JobPoller(server: server, transport: transport, sleeper: sleeper)

        let outcome = try await poller.poll(jobPath: "/v1/jobs/j1")

        #expect(outcome.masterURL?.absoluteString == "https://reel.test/media/videos/v1/master.m3u8")
        #expect(outcome.job.state == "published")
        #expect(sleeper.delays == [1, 2])
        #expect(transport.recorded.map(\.url.path) == ["/v1/jobs/j1", "/v1/jobs/j1", "/v1/jobs/j1", "/v1/videos/v1"])
    }

    @Test func withoutRetryAfterTheWaitStartsAtOneSecondAndGrows() async throws {
        let transport = ScriptedTransport([
            Self.job("queued"), Self.job("queued"), Self.job("queued"), Self.job("published"),
        ])
        let sleeper = RecordingSleeper()
        let poller = JobPoller(server: server, transport: transport, sleeper: sleeper)

        let outcome = try await poller.poll(jobPath: "/v1/jobs/j1")

        #expect(outcome.masterURL == nil)  // no video_url: an image
        #expect(sleeper.delays == [1, 1.5, 2.25])
    }

    @Test func rejectedJobIsExit65WithTheReason() async throws {
        let transport = ScriptedTransport([
            Self.job("rejected", reason: "duration_exceeds_limit", error: "the video is 75 s; the limit is 60 s")
        ])
        let poller = JobPoller(server: server, transport: transport, sleeper: RecordingSleeper())

        let error = await #expect(throws: UploadError.self) { _ = try await poller.poll(jobPath: "/v1/jobs/j1") }

        #expect(error?.kind == .rejected(code: "duration_exceeds_limit"))
        #expect(error?.exitCode == 65)
        #expect(error?.message.contains("the limit is 60 s") == true)
    }

    @Test func failedJobIsExit70() async throws {
        let transport = ScriptedTransport([
            Self.job("failed", reason: "crashed", error: "the job process crashed 3 times")
        ])
        let poller = JobPoller(server: server, transport: transport, sleeper: RecordingSleeper())

        let error = await #expect(throws: UploadError.self) { _ = try await poller.poll(jobPath: "/v1/jobs/j1") }

        #expect(error?.kind == .failed(code: "crashed"))
        #expect(error?.exitCode == 70)
    }

    @Test func serverErrorsAreRetriedThenReportedUnavailable() async throws {
        let transport = ScriptedTransport([
            .fail, .answer(HTTPResponse(status: 503, headers: ["Retry-After": "4"])), .fail, .fail,
        ])
        let sleeper = RecordingSleeper()
        let poller = JobPoller(
            server: server, transport: transport, sleeper: sleeper,
            backoff: RetryBackoff(initialSeconds: 0.5, capSeconds: 8, maxAttempts: 3))

        let error = await #expect(throws: UploadError.self) { _ = try await poller.poll(jobPath: "/v1/jobs/j1") }

        #expect(error?.kind == .unavailable)
        #expect(error?.exitCode == 69)
        #expect(sleeper.delays == [0.5, 4, 2])
    }

    @Test func aDuplicateIsPublishedWithItsReason() async throws {
        let transport = ScriptedTransport([
            Self.job("published", percent: 100, reason: "duplicate", video: "/v1/videos/v1"),
            .answer(HTTPResponse(status: 200, body: Array(#"{"master_url":"/media/videos/v1/master.m3u8"}"#.utf8))),
        ])
        let poller = JobPoller(server: server, transport: transport, sleeper: RecordingSleeper())

        let outcome = try await poller.poll(jobPath: "https://reel.test/v1/jobs/j1")

        #expect(outcome.job.reason == "duplicate")
        #expect(outcome.masterURL?.absoluteString == "https://reel.test/media/videos/v1/master.m3u8")
    }
}
