import Catalog
import Foundation
import GRDB
import Hummingbird
import HummingbirdTesting
import Logging
import SQLiteCatalog
import Testing
import ViewerAnalytics

@testable import FeedServer

/// `POST /v1/events` taken before the router (`EventsFastPath`), on a real socket: a good batch is stored before its
/// 204 with the router's headers, and everything else (a bad or oversized batch, one without a valid session or for
/// an unpublished video, a full queue, a failed write) is answered by the router exactly as before, in order with
/// the other requests on the connection.
@Suite(.timeLimit(.minutes(5))) struct EventsFastPathTests {
    let rig: ServerRig
    let token: String

    init() async throws {
        rig = try ServerRig()
        try await rig.store.seed(count: 2)
        token = rig.sessionToken()
    }

    func withServer(
        log: (any ViewerEventLog)? = nil, maximumWaiting: Int = ViewerEventIngest.defaultMaximumWaiting,
        _ body: @escaping @Sendable (Int, ViewerEventIngest) async throws -> Void
    ) async throws {
        var server = rig.server
        let ingest = ViewerEventIngest(log: log ?? rig.store, maximumWaiting: maximumWaiting)
        server.viewerEvents = ingest
        let app = server.application(host: "127.0.0.1", port: 0, logger: Logger(label: "test"))
        try await app.test(.live) { client in
            try await body(try #require(client.port), ingest)
        }
    }

    func post(_ body: String, close: Bool = false) -> String {
        Self.post(body, close: close, extra: "Reel-Session: \(token)\r\n")
    }

    static func post(
        _ body: String, close: Bool = false, extra: String, contentType: String = "application/json"
    ) -> String {
        "POST /v1/events HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: \(contentType)\r\n\(extra)"
            + "Content-Length: \(body.utf8.count)\r\nConnection: \(close ? "close" : "keep-alive")\r\n\r\n\(body)"
    }

    static func get(_ path: String) -> String {
        "GET \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: keep-alive\r\n\r\n"
    }

    static func status(_ response: String) -> String { response.components(separatedBy: "\r\n").first ?? "" }

    /// The response's header `name` (lowercased), or nil.
    static func header(_ name: String, in response: String) -> String? {
        let head = response.components(separatedBy: "\r\n\r\n")[0]
        return head.components(separatedBy: "\r\n").dropFirst().first { $0.lowercased().hasPrefix(name + ":") }
            .map { String($0.dropFirst(name.count + 1)).trimmingCharacters(in: .whitespaces) }
    }

    /// The fast path's own counter, read from the server's metrics (`/metrics` is on the operations listener).
    func fastAnswers() -> Int {
        let response = rig.server.metricsText
        let line = response.split(separator: "\n").first { $0.hasPrefix("reel_events_fast_path_responses_total") }
        return line.flatMap { $0.split(separator: " ").last }.flatMap { Int($0) } ?? 0
    }

    @Test func aGoodBatchIsStoredAndAnswered204BeforeTheRouterWithTheRoutersHeaders() async throws {
        try await withServer { port, _ in
            let fast = try await RawConnection.offThePool(port: port, [post(ViewerEventRoutesTests.batch)])[0]
            #expect(Self.status(fast) == "HTTP/1.1 204 No Content")
            #expect(fastAnswers() == 1)
            // `Connection: close` is the router's to honour: the same batch, answered the long way.
            let routed = try await RawConnection.offThePool(
                port: port, [post(ViewerEventRoutesTests.batch, close: true)])[0]
            #expect(Self.status(routed) == "HTTP/1.1 204 No Content")
            #expect(fastAnswers() == 1)
            for name in ["cache-control", "server", "content-length", "content-type"] {
                #expect(Self.header(name, in: fast) == Self.header(name, in: routed), "\(name)")
            }
            #expect(Self.header("date", in: fast)?.hasSuffix(" GMT") == true)
            // The metrics count both under the route, as the router alone did.
            let metrics = rig.server.metricsText
            #expect(
                metrics.contains(#"reel_http_requests_total{method="POST",route="/v1/events",status="204"} 2"#),
                "\(metrics)")
        }
        let stored = try await rig.store.viewerEvents(after: 0, limit: 100)
        #expect(stored.count == 12)
        #expect(Array(stored.prefix(6).map(\.event)) == Array(stored.suffix(6).map(\.event)))
        #expect(stored.first?.event.kind == .viewStart(rendition: "360p", startupMilliseconds: 412))
    }

    @Test func batchesTheFastPathCannotStoreAreTheRoutersAndNothingOfThemIsStored() async throws {
        try await withServer { port, _ in
            let tooMany =
                "["
                + Array(
                    repeating: #"{"type":"stall","video":"v000000001","duration_ms":5}"#,
                    count: 101
                ).joined(separator: ",") + "]"
            let tooLarge = "[" + String(repeating: " ", count: ViewerEventBatch.maximumBytes) + "]"
            let responses = try await RawConnection.offThePool(
                port: port,
                [
                    post(#"[{"type":"stall","video":"v000000001"}]"#), post("[1,]"), post(tooMany),
                    post(tooLarge),
                ])
            #expect(
                responses.map(Self.status) == [
                    "HTTP/1.1 400 Bad Request", "HTTP/1.1 400 Bad Request", "HTTP/1.1 400 Bad Request",
                    "HTTP/1.1 413 Payload Too Large",
                ])
            #expect(responses[0].contains("event 0: duration_ms is missing"), "\(responses[0])")
            #expect(responses[1].contains("the body is not JSON"), "\(responses[1])")
            #expect(responses[2].contains("101 events"), "\(responses[2])")
            #expect(responses[3].contains(#""code":"batch_too_large""#), "\(responses[3])")
            #expect(fastAnswers() == 0)
        }
        #expect(try await rig.store.viewerEvents(after: 0, limit: 100).isEmpty)
    }

    /// A batch the gate refuses never gets a 204 here: without a token, with one this server did not sign, as
    /// text/plain, or for a video that is not published, the router answers, and nothing of it is stored.
    @Test func batchesTheGateRefusesAreTheRoutersAndNothingOfThemIsStored() async throws {
        let forged = ViewerSessionToken.issue(keys: .random(), expiresAt: Int64(Int32.max)).text
        let session = "Reel-Session: \(token)\r\n"
        let batch = ViewerEventRoutesTests.batch
        try await withServer { port, _ in
            let responses = try await RawConnection.offThePool(
                port: port,
                [
                    Self.post(batch, extra: ""), Self.post(batch, extra: "Reel-Session: \(forged)\r\n"),
                    Self.post(batch, extra: session, contentType: "text/plain;charset=UTF-8"),
                    Self.post(#"[{"type":"stall","video":"v000000009","duration_ms":5}]"#, extra: session),
                ])
            #expect(
                responses.map { String(Self.status($0).prefix(12)) } == [
                    "HTTP/1.1 401", "HTTP/1.1 401", "HTTP/1.1 415", "HTTP/1.1 422",
                ], "\(responses)")
            #expect(responses[0].contains(#""code":"session_required""#), "\(responses[0])")
            #expect(responses[1].contains(#""code":"session_invalid""#), "\(responses[1])")
            #expect(responses[2].contains(#""code":"unsupported_media_type""#), "\(responses[2])")
            #expect(
                responses[3].contains(#"event 0: video \"v000000009\" is not a published video"#), "\(responses[3])")
            #expect(fastAnswers() == 0)
        }
        #expect(try await rig.store.viewerEvents(after: 0, limit: 100).isEmpty)
    }

    /// The fast path knows a video is published from an earlier batch; taken down (a catalog edit, which moves the
    /// generation), the next batch for it is refused at once.
    @Test func aVideoTakenDownIsRefusedByTheNextBatch() async throws {
        let session = "Reel-Session: \(token)\r\n"
        let batch = #"[{"type":"stall","video":"v000000001","duration_ms":5}]"#
        let store = rig.store
        try await withServer { port, _ in
            let first = try await RawConnection.offThePool(port: port, [Self.post(batch, extra: session)])[0]
            #expect(Self.status(first) == "HTTP/1.1 204 No Content")
            try await store.database.pool.write { db in
                try db.execute(sql: "UPDATE videos SET status = 'rejected' WHERE id = 'v000000001'")
            }
            let second = try await RawConnection.offThePool(port: port, [Self.post(batch, extra: session)])[0]
            #expect(Self.status(second).hasPrefix("HTTP/1.1 422 "), "\(second)")
            #expect(second.contains(#""code":"unknown_video""#), "\(second)")
            #expect(fastAnswers() == 1)
        }
        #expect(try await rig.store.viewerEvents(after: 0, limit: 100).count == 1)
    }

    @Test func fastAndRoutedRequestsKeepTheirOrderOnOneConnection() async throws {
        try await withServer { port, _ in
            let requests = [
                post(ViewerEventRoutesTests.batch), Self.get("/v1/feed?limit=2"), post("[{}]"),
                Self.get("/healthz"), post(ViewerEventRoutesTests.batch), Self.get("/v1/videos/none"),
            ]
            let responses = try await RawConnection.offThePool(port: port, requests)
            #expect(
                responses.map(Self.status) == [
                    "HTTP/1.1 204 No Content", "HTTP/1.1 200 OK", "HTTP/1.1 400 Bad Request", "HTTP/1.1 200 OK",
                    "HTTP/1.1 204 No Content", "HTTP/1.1 404 Not Found",
                ])
            #expect(fastAnswers() == 2)
        }
        #expect(try await rig.store.viewerEvents(after: 0, limit: 100).count == 12)
    }

    /// A full queue refuses the fast path's commit, so the router tries once more and answers 429 as it always has.
    @Test func aFullQueueIsTheRouters429() async throws {
        let log = GatedEventLog()
        try await withServer(log: log, maximumWaiting: 6) { port, ingest in
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask { try await ingest.commit(ViewerEventIngestTests.batch("held", 1)) }
                try await ViewerEventIngestTests.firstWrite(log)
                group.addTask { try await ingest.commit(ViewerEventIngestTests.batch("queued", 2)) }
                try await ViewerEventIngestTests.waitUntil(ingest, holds: 2)
                let refused = try await RawConnection.offThePool(port: port, [post(ViewerEventRoutesTests.batch)])
                #expect(Self.status(refused[0]) == "HTTP/1.1 429 Too Many Requests")
                #expect(Self.header("retry-after", in: refused[0]) == "2")
                #expect(refused[0].contains(#""code":"events_queue_full""#), "\(refused[0])")
                log.open()
                try await group.waitForAll()
            }
            #expect(fastAnswers() == 0)
        }
        #expect(log.writes == [1, 2])
    }

    /// A failed write stores nothing, so the router may try the batch again: it fails too and answers 503; once the
    /// catalog is back, the fast path stores the next batch.
    @Test func aFailedWriteIsTheRouters503AndTheNextBatchIsStored() async throws {
        let log = GatedEventLog()
        log.open()
        log.fail(true)
        try await withServer(log: log) { port, _ in
            let failed = try await RawConnection.offThePool(port: port, [post(ViewerEventRoutesTests.batch)])
            #expect(Self.status(failed[0]) == "HTTP/1.1 503 Service Unavailable")
            log.fail(false)
            let stored = try await RawConnection.offThePool(port: port, [post(ViewerEventRoutesTests.batch)])
            #expect(Self.status(stored[0]) == "HTTP/1.1 204 No Content")
            #expect(fastAnswers() == 1)
        }
        #expect(log.writes == [6])
    }
}
