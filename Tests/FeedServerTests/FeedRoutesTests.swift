import Catalog
import FeedServer
import Foundation
import GRDB
import Hummingbird
import HummingbirdTesting
import MediaFixtures
import SQLiteCatalog
import Testing

/// The JSON routes, driven through the router without a socket.
@Suite(.timeLimit(.minutes(5))) struct FeedRoutesTests {
    let rig: ServerRig
    var directory: TemporaryDirectory { rig.directory }
    var store: SQLiteCatalogEngine { rig.store }
    var server: FeedServer { rig.server }
    var app: some ApplicationProtocol { rig.app }

    init() throws { rig = try ServerRig() }

    @Test func pagesTheWholeFeedNewestFirstWithNullCursorAtTheEnd() async throws {
        try await store.seed(count: 45)
        try await app.test(.router) { client in
            var ids: [String] = []
            var cursor: String?
            var pages = 0
            repeat {
                let uri = "/v1/feed?limit=20" + (cursor.map { "&cursor=\($0)" } ?? "")
                let page = try await client.json(uri)
                let items = try #require(page["items"] as? [[String: Any]])
                ids += items.compactMap { $0["id"] as? String }
                #expect(page.keys.contains("next_cursor"))
                cursor = page["next_cursor"] as? String
                pages += 1
            } while cursor != nil
            #expect(pages == 3)
            #expect(ids == (0..<45).reversed().map { String(format: "v%09d", $0) })
        }
    }

    @Test func itemsCarryEverythingAPlayerNeeds() async throws {
        try await store.seed(count: 3)
        try await app.test(.router) { client in
            let page = try await client.json("/v1/feed")
            let item = try #require((page["items"] as? [[String: Any]])?.first)
            #expect(item["id"] as? String == "v000000002")
            #expect(item["published_at"] as? String == "2023-11-14T22:13:22.000Z")
            #expect(item["duration_s"] as? Double == 15.002)
            #expect(item["width"] as? Int == 1080 && item["height"] as? Int == 1920)
            #expect(item["master_url"] as? String == "/media/videos/v000000002/master.m3u8")
            #expect(item["poster_jpeg_url"] as? String == "/media/videos/v000000002/poster.jpg")
            #expect(item["poster_webp_url"] as? String == "/media/videos/v000000002/poster.webp")
            let renditions = try #require(item["renditions"] as? [[String: Any]])
            #expect(renditions.compactMap { $0["height"] as? Int } == [640, 1280, 1920])
            #expect(
                renditions.allSatisfy {
                    ($0["bandwidth"] as? Int ?? 0) > 0 && $0["average_bandwidth"] != nil && $0["codecs"] != nil
                })
        }
    }

    @Test func limitDefaultsToTenAndAllowsFifty() async throws {
        try await store.seed(count: 60)
        try await app.test(.router) { client in
            let items10 = try await client.json("/v1/feed")["items"] as? [Any]
            #expect(items10?.count == 10)
            let items50 = try await client.json("/v1/feed?limit=50")["items"] as? [Any]
            #expect(items50?.count == 50)
            let items1 = try await client.json("/v1/feed?limit=1")["items"] as? [Any]
            #expect(items1?.count == 1)
        }
    }

    @Test func pagingWhileVideosArePublishedNeitherRepeatsNorSkips() async throws {
        try await store.seed(count: 50)
        try await app.test(.router) { client in
            var ids: [String] = []
            var cursor: String?
            var next = 50
            repeat {
                let uri = "/v1/feed?limit=7" + (cursor.map { "&cursor=\($0)" } ?? "")
                let page = try await client.json(uri)
                ids += (page["items"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? String }
                cursor = page["next_cursor"] as? String
                try await store.seed(count: 3, startingAt: next)  // newer uploads land between every two pages
                next += 3
            } while cursor != nil
            #expect(ids == (0..<50).reversed().map { String(format: "v%09d", $0) })
        }
    }

    @Test(arguments: [
        ("limit=abc", "invalid_limit"), ("limit=", "invalid_limit"), ("limit=1.5", "invalid_limit"),
        ("limit=%20", "invalid_limit"), ("limit=99999999999999999999999", "invalid_limit"),
        ("limit=0", "limit_out_of_range"), ("limit=51", "limit_out_of_range"), ("limit=-1", "limit_out_of_range"),
        ("cursor=", "invalid_cursor"), ("cursor=abc", "invalid_cursor"), ("cursor=v000000010", "invalid_cursor"),
        ("cursor=%00%ff", "invalid_cursor"), ("cursor=" + String(repeating: "QQ", count: 200), "invalid_cursor"),
        ("cursor=" + Data("v1:notanumber:x".utf8).base64EncodedString(), "invalid_cursor"),
    ])
    func badParametersAreA400WithAMachineReadableCode(query: String, code: String) async throws {
        try await store.seed(count: 3)
        try await app.test(.router) { client in
            try await client.execute(uri: "/v1/feed?" + query, method: .get) { response in
                #expect(response.status == .badRequest, "\(query)")
                #expect(response.headers[.contentType]?.hasPrefix("application/json") == true)
                let error = try #require(
                    try JSONSerialization.jsonObject(with: Data(response.body.readableBytesView))
                        as? [String: [String: String]])
                #expect(error["error"]?["code"] == code, "\(query)")
                #expect((error["error"]?["message"]?.count ?? 0) > 10)
            }
        }
    }

    @Test func oneVideoByIdAndUnknownIdsAre404() async throws {
        try await store.seed(count: 2)
        try await app.test(.router) { client in
            #expect(try await client.json("/v1/videos/v000000001")["id"] as? String == "v000000001")
            for uri in [
                "/v1/videos/nope", "/v1/videos/%2e%2e", "/v1/jobs/nope", "/v1/nothing", "/v1", "/index.html",
                "/v1/feed/extra",
            ] {
                try await client.execute(uri: uri, method: .get) { response in
                    #expect(response.status == .notFound, "\(uri)")
                    let body =
                        try JSONSerialization.jsonObject(with: Data(response.body.readableBytesView))
                        as? [String: [String: String]]
                    #expect(body?["error"]?["code"] == "not_found", "\(uri)")
                }
            }
        }
    }

    @Test func jobStatusReportsStateAndProgressInPercent() async throws {
        try await store.database.pool.write { db in
            try db.execute(
                sql: """
                    INSERT INTO jobs (id, kind, source_name, state, attempts, progress, created_at, updated_at)
                    VALUES ('j1', 'video', X'6162', 'processing', 1, 0.427, 1, 2),
                           ('j2', 'image', X'6162', 'rejected', 1, 0, 1, 2)
                    """)
            try db.execute(
                sql: """
                    UPDATE jobs SET reason = 'duration_exceeds_limit', last_error = 'too_long: 75 s is over the 60 s limit' WHERE id = 'j2'
                    """)
        }
        try await app.test(.router) { client in
            let processing = try await client.json("/v1/jobs/j1")
            #expect(processing["state"] as? String == "processing")
            #expect(processing["progress_percent"] as? Int == 42)
            #expect(processing["kind"] as? String == "video")
            let rejected = try await client.json("/v1/jobs/j2")
            #expect(rejected["state"] as? String == "rejected")
            #expect((rejected["error"] as? String)?.hasPrefix("too_long") == true)
            #expect(rejected["reason"] as? String == "duration_exceeds_limit")
            #expect(processing["reason"] is NSNull)
        }
    }

    /// Health on the public router; the requests it served counted on the operations router's `/metrics`.
    @Test func healthAndPrometheusMetrics() async throws {
        try await store.seed(count: 1)
        try await app.test(.router) { client in
            #expect(try await client.json("/healthz")["status"] as? String == "ok")
            _ = try await client.json("/v1/feed")
            _ = try await client.execute(uri: "/v1/feed?limit=x", method: .get)
        }
        try await Application(router: server.adminRouter()).test(.router) { client in
            try await client.execute(uri: "/metrics", method: .get) { response in
                #expect(response.status == .ok)
                #expect(response.headers[.contentType]?.hasPrefix("text/plain") == true)
                let text = String(buffer: response.body)
                #expect(
                    text.contains(#"reel_http_requests_total{method="GET",route="/v1/feed",status="200"} 1"#), "\(text)"
                )
                #expect(
                    text.contains(#"reel_http_requests_total{method="GET",route="/v1/feed",status="400"} 1"#), "\(text)"
                )
                #expect(text.contains("reel_http_request_duration_seconds_bucket"), "\(text)")
            }
        }
    }

    @Test func rateLimitAnswers429WithRetryAfterOnceTheBurstIsSpent() async throws {
        try await store.seed(count: 1)
        // One token per 1000 s: however slowly a loaded machine runs these four requests, none refills the bucket.
        let limited = FeedServer(
            store: store, media: server.media, rateLimit: RateLimit(requestsPerSecond: 0.001, burst: 3))
        try await Application(router: limited.router()).test(.router) { client in
            for _ in 0..<3 {
                #expect(try await client.execute(uri: "/v1/feed", method: .get).status == .ok)
            }
            try await client.execute(uri: "/v1/feed", method: .get) { response in
                #expect(response.status == .tooManyRequests)
                let retry = try #require(response.headers[.retryAfter].flatMap { Int($0) })
                #expect((1...1000).contains(retry))
                let body =
                    try JSONSerialization.jsonObject(with: Data(response.body.readableBytesView))
                    as? [String: [String: String]]
                #expect(body?["error"]?["code"] == "rate_limited")
            }
        }
    }
}

extension TestClientProtocol {
    /// GET `uri`, require a 200 with a JSON object, and return it.
    func json(_ uri: String) async throws -> [String: Any] {
        try await execute(uri: uri, method: .get) { response in
            #expect(response.status == .ok, "\(uri): \(String(buffer: response.body))")
            return try #require(
                try JSONSerialization.jsonObject(with: Data(response.body.readableBytesView)) as? [String: Any])
        }
    }
}
