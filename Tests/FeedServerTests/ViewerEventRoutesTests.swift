import Catalog
import Foundation
import Hummingbird
import HummingbirdTesting
import SQLiteCatalog
import Testing
import ViewerAnalytics

@testable import FeedServer

/// `POST /v1/events` through the router on a real SQLite catalog: 204 only for a stored batch, a bad one refused whole
/// with its first bad event and field, an oversized one refused before it is read whole, CORS for the named origin.
/// (What a batch needs besides, a session token and published videos, is `ViewerEventBoundaryTests`'.)
@Suite(.timeLimit(.minutes(5))) struct ViewerEventRoutesTests {
    let rig: ServerRig
    let server: FeedServer
    let token: String

    init() async throws {
        rig = try ServerRig()
        try await rig.store.seed(count: 2)
        var server = rig.server
        server.viewerEvents = ViewerEventIngest(log: rig.store)
        server.corsOrigins = ["https://app.example"]
        self.server = server
        token = rig.sessionToken()
    }

    /// A published video of the rig's catalog (`seed(count: 2)`).
    static let video = "v000000001"

    static let batch = """
        [{"type":"view_start","video":"v000000001","rendition":"360p","startup_ms":412},
         {"type":"stall","video":"v000000001","duration_ms":800},
         {"type":"progress","video":"v000000001","position_s":4.5,"watched_s":4.5},
         {"type":"segment","video":"v000000001","bytes":181234,"ms":95},
         {"type":"view_end","video":"v000000001","watched_s":14.2,"completed":true,"bytes":900000},
         {"type":"error","message":"MEDIA_ERR_NETWORK"}]
        """

    var headers: HTTPFields { [.contentType: "application/json", .reelSession: token] }

    @Test(arguments: [
        "application/json", "application/json; charset=utf-8", "Application/JSON", " APPLICATION/json ;x=y",
    ])
    func aBatchIsStoredBeforeThe204(contentType: String) async throws {
        let before = Int64(Date().timeIntervalSince1970 * 1000)
        try await Application(router: server.router()).test(.router) { client in
            let response = try await client.execute(
                uri: "/v1/events", method: .post, headers: [.contentType: contentType, .reelSession: token],
                body: ByteBuffer(string: Self.batch))
            #expect(response.status == .noContent && response.body.readableBytes == 0)
            #expect(response.headers[.cacheControl] == "no-store")
        }
        let session = try ViewerSessionToken.verify(token, keys: server.eventGate.keys, now: 0).session
        let stored = try await rig.store.viewerEvents(after: 0, limit: 100)
        #expect(
            stored.map(\.event.kind) == [
                .viewStart(rendition: "360p", startupMilliseconds: 412), .stall(milliseconds: 800),
                .progress(positionSeconds: 4.5, watchedSeconds: 4.5), .segment(bytes: 181_234, milliseconds: 95),
                .viewEnd(watchedSeconds: 14.2, completed: true, bytes: 900_000), .error(message: "MEDIA_ERR_NETWORK"),
            ])
        // Every event is of the token's session: the server's id, not one the client chose.
        #expect(stored.allSatisfy { $0.event.session == session && $0.receivedAt >= before })
        #expect(session.count == 32)
        #expect(stored.last?.event.video == nil)
    }

    @Test(arguments: [
        (
            #"[{"type":"view_start","video":"v000000001","rendition":"360p","startup_ms":412},{"type":"stall","video":"v000000001"}]"#,
            "event 1: duration_ms is missing"
        ),
        (
            #"[{"type":"progress","video":"v000000001","position_s":1,"watched_s":1,"ip":"10.0.0.1"}]"#,
            "event 0: ip is not a field of this event type"
        ),
        (
            #"[{"type":"view_start","video":"v000000001","rendition":"360p","startup_ms":600001}]"#,
            "event 0: startup_ms must be from 0 to 600000"
        ),
        (#"{"type":"stall"}"#, "the body must be a JSON array of events"),
        ("[", "the body is not JSON: line 1, column 2 (byte 1): the document ends where a value or ']' should be"),
        (
            #"[{"type":"stall",}]"#,
            "the body is not JSON: line 1, column 18 (byte 17): found '}' where a key in double quotes"
        ),
        (
            "["
                + Array(repeating: #"{"type":"stall","video":"v000000001","duration_ms":1}"#, count: 101)
                .joined(separator: ",") + "]", "the batch has 101 events; the limit is 100"
        ),
    ])
    func aBadBatchIs400NamingTheFirstBadEventAndFieldAndNothingIsStored(body: String, message: String) async throws {
        try await Application(router: server.router()).test(.router) { client in
            let response = try await client.execute(
                uri: "/v1/events", method: .post, headers: headers,
                body: ByteBuffer(string: body))
            #expect(response.status == .badRequest)
            let text = String(buffer: response.body)
            #expect(text.contains(#""code":"bad_events""#) && text.contains(message), "\(text)")
        }
        #expect(try await rig.store.viewerEvents(after: 0, limit: 10).isEmpty)
    }

    @Test func aBodyOver64KBIs413() async throws {
        let body = "[" + String(repeating: " ", count: ViewerEventBatch.maximumBytes) + "]"
        try await Application(router: server.router()).test(.router) { client in
            let response = try await client.execute(
                uri: "/v1/events", method: .post, headers: headers,
                body: ByteBuffer(string: body))
            #expect(response.status == .contentTooLarge)
            #expect(String(buffer: response.body).contains(#""code":"batch_too_large""#))
        }
    }

    @Test func aPageOnAnAllowedOriginMayPostEvents() async throws {
        try await Application(router: server.router()).test(.router) { client in
            let preflight = try await client.execute(
                uri: "/v1/events", method: .options,
                headers: [
                    .origin: "https://app.example", .accessControlRequestMethod: "POST",
                    .accessControlRequestHeaders: "Content-Type, Reel-Session",
                ])
            #expect(preflight.status == .noContent)
            #expect(preflight.headers[.accessControlAllowOrigin] == "https://app.example")
            #expect(preflight.headers[.accessControlAllowMethods]?.contains("POST") == true)
            #expect(preflight.headers[.accessControlAllowHeaders]?.contains("Reel-Session") == true)
            let posted = try await client.execute(
                uri: "/v1/events", method: .post,
                headers: [.origin: "https://app.example", .contentType: "application/json", .reelSession: token],
                body: ByteBuffer(string: Self.batch))
            #expect(posted.status == .noContent)
            #expect(posted.headers[.accessControlAllowOrigin] == "https://app.example")
            let refused = try await client.execute(
                uri: "/v1/events", method: .post,
                headers: [.origin: "https://app.example", .contentType: "application/json", .reelSession: token],
                body: ByteBuffer(string: "[1]"))
            #expect(refused.status == .badRequest)
            #expect(refused.headers[.accessControlAllowOrigin] == "https://app.example")
        }
    }

    /// A full write queue is a 429 with Retry-After, at once: the held write is the test's.
    @Test func aFullQueueIs429WithRetryAfter() async throws {
        let log = GatedEventLog()
        var server = rig.server
        let ingest = ViewerEventIngest(log: log, maximumWaiting: 6)
        server.viewerEvents = ingest
        try await Application(router: server.router()).test(.router) { client in
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask { try await ingest.commit(ViewerEventIngestTests.batch("held", 1)) }
                try await ViewerEventIngestTests.firstWrite(log)
                group.addTask { try await ingest.commit(ViewerEventIngestTests.batch("queued", 2)) }
                try await ViewerEventIngestTests.waitUntil(ingest, holds: 2)
                let response = try await client.execute(
                    uri: "/v1/events", method: .post, headers: headers,
                    body: ByteBuffer(string: Self.batch))
                #expect(response.status == .tooManyRequests)
                #expect(response.headers[.retryAfter] == "2")
                let text = String(buffer: response.body)
                #expect(text.contains(#""code":"events_queue_full""#) && text.contains("limit 6"), "\(text)")
                log.open()
                try await group.waitForAll()
            }
        }
        #expect(log.writes == [1, 2])
    }
}
