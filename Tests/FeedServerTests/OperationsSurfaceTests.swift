import Catalog
import Foundation
import Hummingbird
import HummingbirdTesting
import Logging
import MediaFixtures
import SQLiteCatalog
import Testing

@testable import FeedServer

/// The operations surface apart from viewers (issue 62): `/metrics` only on the operations listener, `/healthz` and
/// `/readyz` saying nothing of paths, and a server that listens only once it can answer every route it serves.
@Suite(.timeLimit(.minutes(5))) struct OperationsSurfaceTests {
    let rig: ServerRig

    init() throws { rig = try ServerRig() }

    /// One request on a connection of its own, off the pool: its status line and body.
    static func get(_ port: Int, _ path: String) async throws -> (status: String, body: String) {
        let answer = try await RawSocket.offThePool {
            let socket = try RawSocket(port: port)
            try socket.send("GET \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
            return socket.receiveUntilClosed().text
        }
        let parts = answer.components(separatedBy: "\r\n\r\n")
        return (answer.components(separatedBy: "\r\n")[0], parts.dropFirst().joined(separator: "\r\n\r\n"))
    }

    @Test func metricsAreServedOnTheOperationsListenerAndNotOnThePublicOne() async throws {
        try await rig.store.seed(count: 3)
        var server = rig.server
        server.adminAddress = .loopback
        try await withLiveServer(server) { listening in
            let admin = try #require(listening.admin)
            #expect(admin.host == "127.0.0.1" && admin.port != 0 && admin.port != listening.address.port)
            let publicPort = listening.address.port
            #expect(try await Self.get(publicPort, "/v1/feed?limit=2").status == "HTTP/1.1 200 OK")
            let hidden = try await Self.get(publicPort, "/metrics")
            #expect(hidden.status == "HTTP/1.1 404 Not Found", "\(hidden)")
            #expect(!hidden.body.contains("reel_http"), "\(hidden.body)")

            let metrics = try await Self.get(admin.port, "/metrics")
            #expect(metrics.status == "HTTP/1.1 200 OK")
            #expect(
                metrics.body.contains(#"reel_http_requests_total{method="GET",route="/v1/feed",status="200"} 1"#),
                "\(metrics.body)")
            #expect(try await Self.get(admin.port, "/healthz").status == "HTTP/1.1 200 OK")
            #expect(try await Self.get(admin.port, "/readyz").status == "HTTP/1.1 200 OK")
            // Nothing a viewer uses is on the operations listener.
            #expect(try await Self.get(admin.port, "/v1/feed").status == "HTTP/1.1 404 Not Found")
        }
    }

    @Test func withoutAnOperationsAddressMetricsAreServedNowhere() async throws {
        try await withLiveServer(rig.server) { listening in
            #expect(listening.admin == nil)
            let hidden = try await Self.get(listening.address.port, "/metrics")
            #expect(hidden.status == "HTTP/1.1 404 Not Found")
        }
    }

    /// The worker's disk state is the one health problem; its answer on the public port names no path.
    @Test func healthAndReadinessNameNoPath() async throws {
        var server = rig.server
        server.healthProblem = { .diskFull(availableBytes: 1024, requiredBytes: 1 << 30) }
        try await Application(router: server.router()).test(.router) { client in
            try await client.execute(uri: "/healthz", method: .get) { response in
                #expect(response.status == .serviceUnavailable)
                let body = String(buffer: response.body)
                #expect(body.contains(#""code":"disk_full""#), "\(body)")
                #expect(!body.contains("/"), "\(body)")
                #expect(!body.contains(rig.directory.path), "\(body)")
            }
            // A full disk is not unreadiness: the feed and media still answer.
            try await client.execute(uri: "/readyz", method: .get) { response in
                #expect(response.status == .ok)
                #expect(String(buffer: response.body) == #"{"status":"ready"}"#)
                #expect(response.headers[.cacheControl] == "no-store")
            }
        }
    }

    @Test func theEngagingFeedIsNotReadyUntilItsFirstRankingIsMade() async throws {
        try await rig.store.seed(count: 4)
        var engaging = rig.server
        engaging.feedOrder = .engaging(rig.store)
        let server = engaging
        try await Application(router: server.router()).test(.router) { client in
            try await client.execute(uri: "/readyz", method: .get) { response in
                #expect(response.status == .serviceUnavailable)
                #expect(String(buffer: response.body).contains(#""code":"ranking_not_ready""#))
                #expect(response.headers[.retryAfter] == "1")
            }
            try await server.prepareToServe(logger: .init(label: "test"))
            #expect(try await client.execute(uri: "/readyz", method: .get).status == .ok)
            #expect(try await client.execute(uri: "/v1/feed", method: .get).status == .ok)
        }
    }

    /// No roll-up service runs here, so only the server itself can have made the ranking its first page comes from:
    /// before it listened.
    @Test func anEngagingServerAnswersItsFirstFeedRequestAsSoonAsItListens() async throws {
        try await rig.store.seed(count: 4)
        var server = rig.server
        server.feedOrder = .engaging(rig.store)
        try await withLiveServer(server) { listening in
            let first = try await Self.get(listening.address.port, "/v1/feed?limit=2")
            #expect(first.status == "HTTP/1.1 200 OK", "\(first)")
            #expect(first.body.contains("v000000003"), "\(first.body)")
            #expect(try await Self.get(listening.address.port, "/readyz").status == "HTTP/1.1 200 OK")
        }
    }

    @Test func listenAddressesParseAsHostAndPort() throws {
        #expect(try ListenAddress("127.0.0.1:9464") == ListenAddress(host: "127.0.0.1", port: 9464))
        #expect(try ListenAddress("[::1]:0") == ListenAddress(host: "::1", port: 0))
        #expect(try ListenAddress("localhost:9100").description == "localhost:9100")
        #expect(ListenAddress(host: "::1", port: 80).description == "[::1]:80")
        for (text, reason) in [
            ("9464", ListenAddress.Invalid.Reason.missingPort), (":9464", .missingHost),
            ("127.0.0.1:70000", .badPort), ("127.0.0.1:x", .badPort), ("::1:80", .badHost), ("[::1:80", .badHost),
        ] {
            #expect(throws: ListenAddress.Invalid(text: text, reason: reason)) { try ListenAddress(text) }
        }
    }
}
