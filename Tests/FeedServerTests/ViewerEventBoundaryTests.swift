import Catalog
import Foundation
import GRDB
import Hummingbird
import HummingbirdTesting
import SQLiteCatalog
import Synchronization
import Testing
import ViewerAnalytics

@testable import FeedServer

/// The viewer events' trust boundaries (docs/security.md, "Viewer events"), through the router on a real SQLite
/// catalog: a batch needs a session token this server issued and that has not expired, must be `application/json`,
/// may name only published videos, and is within its session's and its address's budgets; a page on an origin not
/// named gets no CORS grant; every refusal is a 4xx naming its reason and is counted under it. The clocks the gate
/// reads are the test's, moved by hand.
@Suite(.timeLimit(.minutes(5))) struct ViewerEventBoundaryTests {
    let rig: ServerRig
    let clock = TestClock()

    init() async throws {
        rig = try ServerRig()
        try await rig.store.seed(count: 3)
    }

    /// The rig's server with events, a gate on the test's clocks, and `limits`.
    func server(limits: ViewerEventLimits = .standard, corsOrigins: [String] = []) -> FeedServer {
        var server = rig.server
        server.viewerEvents = ViewerEventIngest(log: rig.store)
        server.corsOrigins = corsOrigins
        let clock = clock
        server.eventGate = ViewerEventGate(
            keys: .random(), limits: limits, lifetimeSeconds: 3600, metrics: server.metricsFactory,
            unixClock: { clock.unixSeconds }, uptimeClock: { clock.uptime })
        return server
    }

    static let batch = #"[{"type":"stall","video":"v000000001","duration_ms":5}]"#

    /// A session from `POST /v1/sessions`: its id and token.
    static func newSession(
        _ client: some TestClientProtocol, renewing: String? = nil
    ) async throws -> (session: String, token: String, expiresIn: Int) {
        var headers = HTTPFields()
        if let renewing { headers[.reelSession] = renewing }
        let response = try await client.execute(uri: "/v1/sessions", method: .post, headers: headers)
        #expect(response.status == .ok && response.headers[.cacheControl] == "no-store")
        let body =
            try JSONSerialization.jsonObject(with: Data(String(buffer: response.body).utf8)) as? [String: Any] ?? [:]
        return (
            try #require(body["session"] as? String), try #require(body["token"] as? String),
            try #require(body["expires_in"] as? Int)
        )
    }

    static func post(
        _ client: some TestClientProtocol, token: String?, contentType: String? = "application/json",
        body: String = batch, origin: String? = nil
    ) async throws -> TestResponse {
        var headers = HTTPFields()
        if let token { headers[.reelSession] = token }
        if let contentType { headers[.contentType] = contentType }
        if let origin { headers[.origin] = origin }
        return try await client.execute(
            uri: "/v1/events", method: .post, headers: headers, body: ByteBuffer(string: body))
    }

    /// The error's code and message, from its JSON body.
    static func error(_ response: TestResponse) -> (code: String, message: String) {
        let body = (try? JSONSerialization.jsonObject(with: Data(String(buffer: response.body).utf8))) as? [String: Any]
        let error = body?["error"] as? [String: Any]
        return (error?["code"] as? String ?? "", error?["message"] as? String ?? "")
    }

    @Test func aBatchWithoutASessionTokenIs401AndNothingIsStored() async throws {
        let server = server()
        try await Application(router: server.router()).test(.router) { client in
            let response = try await Self.post(client, token: nil)
            #expect(response.status == .unauthorized)
            #expect(response.headers[.wwwAuthenticate]?.hasPrefix("Reel-Session") == true)
            let (code, message) = Self.error(response)
            #expect(code == "session_required" && message.contains("POST /v1/sessions"), "\(message)")
        }
        #expect(try await rig.store.viewerEvents(after: 0, limit: 10).isEmpty)
    }

    @Test func aTokenThisServerDidNotSignIs401() async throws {
        let server = server()
        let now = clock.unixSeconds
        let otherKey = ViewerSessionToken.issue(keys: .random(), expiresAt: now + 3600).text
        let ours = ViewerSessionToken.issue(keys: server.eventGate.keys, expiresAt: now + 3600).text
        // One character of a real token changed (the MAC's, the session's, the expiry's).
        let altered = [ours.count - 1, 10, 20].map { index -> String in
            var characters = Array(ours)
            characters[index] = characters[index] == "A" ? "B" : "A"
            return String(characters)
        }
        try await Application(router: server.router()).test(.router) { client in
            for token in [otherKey, "not-a-token", String(ours.dropLast())] + altered {
                let response = try await Self.post(client, token: token)
                #expect(response.status == .unauthorized, "\(token)")
                #expect(Self.error(response).code == "session_invalid", "\(token)")
            }
            #expect(try await Self.post(client, token: ours).status == .noContent)
        }
        #expect(try await rig.store.viewerEvents(after: 0, limit: 10).count == 1)
    }

    @Test func anExpiredTokenIs401AndARenewalKeepsTheSession() async throws {
        let server = server()
        try await Application(router: server.router()).test(.router) { client in
            let first = try await Self.newSession(client)
            #expect(first.expiresIn == 3600 && first.session.count == 32)
            clock.advance(seconds: 3000)
            let renewed = try await Self.newSession(client, renewing: first.token)
            #expect(renewed.session == first.session && renewed.token != first.token)
            clock.advance(seconds: 600)
            let expired = try await Self.post(client, token: first.token)
            #expect(expired.status == .unauthorized)
            #expect(Self.error(expired).code == "session_expired")
            #expect(try await Self.post(client, token: renewed.token).status == .noContent)
            // An expired token renews nothing: its holder gets a new session.
            let fresh = try await Self.newSession(client, renewing: first.token)
            #expect(fresh.session != first.session)
        }
        let stored = try await rig.store.viewerEvents(after: 0, limit: 10)
        #expect(stored.count == 1)
    }

    @Test(arguments: [
        "text/plain;charset=UTF-8", "text/plain", "application/x-www-form-urlencoded", "multipart/form-data",
        "application/jsonp", "",
    ])
    func onlyApplicationJSONIsTaken(contentType: String) async throws {
        let server = server()
        try await Application(router: server.router()).test(.router) { client in
            let token = try await Self.newSession(client).token
            let response = try await Self.post(
                client, token: token, contentType: contentType.isEmpty ? nil : contentType)
            #expect(response.status == .unsupportedMediaType)
            let (code, message) = Self.error(response)
            #expect(code == "unsupported_media_type" && message.contains("application/json"), "\(message)")
        }
        #expect(try await rig.store.viewerEvents(after: 0, limit: 10).isEmpty)
    }

    @Test func eventsForAVideoThatIsNotPublishedAre422() async throws {
        let server = server()
        try await Application(router: server.router()).test(.router) { client in
            let token = try await Self.newSession(client).token
            let unknown =
                #"[{"type":"stall","video":"v000000001","duration_ms":5},{"type":"stall","video":"nope","duration_ms":5}]"#
            let refused = try await Self.post(client, token: token, body: unknown)
            #expect(refused.status == .unprocessableContent)
            #expect(Self.error(refused) == ("unknown_video", #"event 1: video "nope" is not a published video"#))
            #expect(try await Self.post(client, token: token).status == .noContent)
            // Taken down (a catalog edit outside Reel, as a moderator's): refused from the next batch on.
            try await rig.store.database.pool.write { db in
                try db.execute(sql: "UPDATE videos SET status = 'rejected' WHERE id = 'v000000001'")
            }
            let takenDown = try await Self.post(client, token: token)
            #expect(takenDown.status == .unprocessableContent)
            #expect(Self.error(takenDown).code == "unknown_video")
            // An error event may name no video at all.
            let error = #"[{"type":"error","message":"MEDIA_ERR_NETWORK"}]"#
            #expect(try await Self.post(client, token: token, body: error).status == .noContent)
        }
        #expect(try await rig.store.viewerEvents(after: 0, limit: 10).count == 2)
    }

    @Test func aSessionOverItsBudgetIs429WithRetryAfter() async throws {
        let limits = ViewerEventLimits(
            perSession: RateLimit(requestsPerSecond: 0.5, burst: 2),
            perAddress: RateLimit(requestsPerSecond: 100, burst: 100))
        let server = server(limits: limits)
        try await Application(router: server.router()).test(.router) { client in
            let token = try await Self.newSession(client).token
            #expect(try await Self.post(client, token: token).status == .noContent)
            #expect(try await Self.post(client, token: token).status == .noContent)
            let limited = try await Self.post(client, token: token)
            #expect(limited.status == .tooManyRequests)
            #expect(limited.headers[.retryAfter] == "2")
            #expect(Self.error(limited).code == "session_rate_limited")
            // Another session of the same address has a budget of its own.
            let other = try await Self.newSession(client).token
            #expect(try await Self.post(client, token: other).status == .noContent)
            clock.advance(uptime: 2)
            #expect(try await Self.post(client, token: token).status == .noContent)
        }
        #expect(try await rig.store.viewerEvents(after: 0, limit: 10).count == 4)
    }

    @Test func anAddressOverItsBudgetIs429WithRetryAfter() async throws {
        let limits = ViewerEventLimits(
            perSession: RateLimit(requestsPerSecond: 100, burst: 100),
            perAddress: RateLimit(requestsPerSecond: 1, burst: 4))
        let server = server(limits: limits)
        try await Application(router: server.router()).test(.router) { client in
            // New sessions and batches share the address's budget: 2 sessions and 2 batches spend it.
            let first = try await Self.newSession(client).token
            let second = try await Self.newSession(client).token
            #expect(try await Self.post(client, token: first).status == .noContent)
            #expect(try await Self.post(client, token: second).status == .noContent)
            let limited = try await Self.post(client, token: first)
            #expect(limited.status == .tooManyRequests && limited.headers[.retryAfter] == "1")
            #expect(Self.error(limited).code == "address_rate_limited")
            let noSession = try await client.execute(uri: "/v1/sessions", method: .post)
            #expect(noSession.status == .tooManyRequests && noSession.headers[.retryAfter] == "1")
            #expect(Self.error(noSession).code == "address_rate_limited")
        }
        #expect(try await rig.store.viewerEvents(after: 0, limit: 10).count == 2)
    }

    /// `--cors-origin '*'` opens the feed and media to any page, but not the viewer writes: a page on another origin
    /// gets no grant to make a session or send events, so it cannot make its visitors' browsers write them.
    @Test func aForeignOriginGetsNoCORSGrantForViewerWrites() async throws {
        for origins in [["*"], ["https://app.example"], ["*", "https://app.example"]] {
            let server = server(corsOrigins: origins)
            try await Application(router: server.router()).test(.router) { client in
                for path in ["/v1/events", "/v1/sessions"] {
                    let preflight = try await client.execute(
                        uri: path, method: .options,
                        headers: [
                            .origin: "https://evil.example", .accessControlRequestMethod: "POST",
                            .accessControlRequestHeaders: "Content-Type, Reel-Session",
                        ])
                    #expect(preflight.headers[.accessControlAllowOrigin] == nil, "\(origins) \(path)")
                    #expect(preflight.headers[.accessControlAllowHeaders] == nil, "\(origins) \(path)")
                }
                let session = try await client.execute(
                    uri: "/v1/sessions", method: .post, headers: [.origin: "https://evil.example"])
                #expect(session.headers[.accessControlAllowOrigin] == nil, "\(origins)")
                let token = try await Self.newSession(client).token
                let posted = try await Self.post(client, token: token, origin: "https://evil.example")
                #expect(posted.headers[.accessControlAllowOrigin] == nil, "\(origins)")
                // The named origin keeps its grant; a read stays open to any page under '*'.
                if origins.contains("https://app.example") {
                    let allowed = try await Self.post(client, token: token, origin: "https://app.example")
                    #expect(allowed.headers[.accessControlAllowOrigin] == "https://app.example")
                }
                let feed = try await client.execute(
                    uri: "/v1/feed", method: .get, headers: [.origin: "https://evil.example"])
                #expect(feed.headers[.accessControlAllowOrigin] == (origins.contains("*") ? "*" : nil), "\(origins)")
            }
        }
    }

    @Test func everyRefusalIsCountedUnderItsReason() async throws {
        let limits = ViewerEventLimits(
            perSession: RateLimit(requestsPerSecond: 1, burst: 3),
            perAddress: RateLimit(requestsPerSecond: 100, burst: 100))
        let server = server(limits: limits)
        try await Application(router: server.router()).test(.router) { client in
            let token = try await Self.newSession(client).token
            _ = try await Self.post(client, token: nil)
            _ = try await Self.post(client, token: "forged")
            _ = try await Self.post(client, token: token, contentType: "text/plain")
            _ = try await Self.post(client, token: token, body: #"[{"type":"stall","video":"v9","duration_ms":5}]"#)
            _ = try await Self.post(client, token: token, body: "[1]")
            _ = try await Self.post(client, token: token)
            _ = try await Self.post(client, token: token)
        }
        // `/metrics` is on the operations listener, not this router: the server's own text.
        let metrics = server.metricsText
        for (reason, count) in [
            ("session_required", 1), ("session_invalid", 1), ("unsupported_media_type", 1), ("unknown_video", 1),
            ("bad_events", 1), ("session_rate_limited", 1), ("session_expired", 0),
        ] {
            #expect(
                metrics.contains("reel_events_rejected_total{reason=\"\(reason)\"} \(count)\n"), "\(reason): \(metrics)"
            )
        }
        #expect(metrics.contains("reel_viewer_sessions_issued_total 1\n"), "\(metrics)")
    }
}

/// The gate's two clocks, moved by a test: Unix seconds (token expiry) and seconds of uptime (the budgets).
final class TestClock: Sendable {
    private let state = Mutex((unix: Int64(1_800_000_000), uptime: 1000.0))

    var unixSeconds: Int64 { state.withLock { $0.unix } }
    var uptime: Double { state.withLock { $0.uptime } }

    func advance(seconds: Int64) { state.withLock { $0.unix += seconds } }
    func advance(uptime seconds: Double) { state.withLock { $0.uptime += seconds } }
}
