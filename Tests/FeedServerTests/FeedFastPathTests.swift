import Catalog
import Foundation
import Hummingbird
import HummingbirdTesting
import Logging
import MediaFixtures
import MediaStore
import MediaStoreDirectory
import SQLiteCatalog
import Testing

@testable import FeedServer

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
#if canImport(Glibc)
import Glibc
#endif

/// Feed pages answered before the router (`FeedFastPath`), on a real socket: the same bytes and headers as the
/// router gives, fresh after a publish on another connection, taking turns with the router on one connection, and
/// never past the rate limit.
@Suite(.timeLimit(.minutes(5))) struct FeedFastPathTests {
    let directory: TemporaryDirectory
    let store: SQLiteCatalogEngine

    init() async throws {
        directory = try TemporaryDirectory()
        store = SQLiteCatalogEngine(database: try SQLiteCatalogDatabase(path: directory.file("catalog.sqlite")))
        try await store.seed(count: 12)
        try FileManager.default.createDirectory(atPath: directory.file("library"), withIntermediateDirectories: true)
    }

    func withServer(
        rateLimit: RateLimit? = nil, _ body: @escaping @Sendable (Int, FeedServer) async throws -> Void
    ) async throws {
        let server = FeedServer(
            store: store, media: try .directory(directory.file("library")), rateLimit: rateLimit)
        let app = server.application(host: "127.0.0.1", port: 0, logger: Logger(label: "test"))
        try await app.test(.live) { client in
            try await body(try #require(client.port), server)
        }
    }

    static func get(
        _ port: Int, _ path: String, headers: [String: String] = [:]
    ) async throws -> (Data, HTTPURLResponse) {
        var request = URLRequest(url: URL(string: "http://127.0.0.1:\(port)\(path)")!)
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        request.cachePolicy = .reloadIgnoringLocalCacheData
        let (data, response) = try await URLSession.shared.data(for: request)
        return (data, try #require(response as? HTTPURLResponse))
    }

    /// The fast path's own counter, read from the server's metrics (`/metrics` is on the operations listener).
    static func fastAnswers(_ server: FeedServer) -> Int {
        let text = server.metricsText
        let line = text.split(separator: "\n").first { $0.hasPrefix("reel_feed_fast_path_responses_total") }
        return line.flatMap { $0.split(separator: " ").last }.flatMap { Int($0) } ?? 0
    }

    @Test func plainFeedRequestsAreAnsweredBeforeTheRouterWithTheRoutersBytesAndHeaders() async throws {
        try await withServer { port, server in
            let (fast, fastResponse) = try await Self.get(port, "/v1/feed?limit=5")
            #expect(Self.fastAnswers(server) == 1)
            // A percent-escaped parameter is the router's: the same page, answered the long way.
            let (routed, routedResponse) = try await Self.get(port, "/v1/feed?limit=%35")
            #expect(Self.fastAnswers(server) == 1)
            #expect(fast == routed)
            for name in ["ETag", "Cache-Control", "Content-Type", "Content-Length", "Server"] {
                #expect(
                    fastResponse.value(forHTTPHeaderField: name) == routedResponse.value(forHTTPHeaderField: name),
                    "\(name)")
            }
            #expect(fastResponse.value(forHTTPHeaderField: "Date")?.hasSuffix(" GMT") == true)
            let etag = try #require(fastResponse.value(forHTTPHeaderField: "ETag"))
            let (empty, notModified) = try await Self.get(port, "/v1/feed?limit=5", headers: ["If-None-Match": etag])
            #expect(notModified.statusCode == 304 && empty.isEmpty)
            #expect(Self.fastAnswers(server) == 2)

            // A page behind a cursor, uncached and then kept, with its parameters in either order.
            let page = try #require(try JSONSerialization.jsonObject(with: fast) as? [String: Any])
            let cursor = try #require(page["next_cursor"] as? String)
            let (second, _) = try await Self.get(port, "/v1/feed?limit=5&cursor=\(cursor)")
            let (secondAgain, _) = try await Self.get(port, "/v1/feed?cursor=\(cursor)&limit=5")
            #expect(second == secondAgain)
            let answers = Self.fastAnswers(server)
            #expect(answers == 4)
            let items = try #require(
                (try JSONSerialization.jsonObject(with: second) as? [String: Any])?["items"] as? [[String: Any]])
            #expect(
                items.compactMap { $0["id"] as? String } == [
                    "v000000006", "v000000005", "v000000004", "v000000003", "v000000002",
                ])
        }
    }

    @Test func parametersTheFastPathDoesNotReadPlainlyGoToTheRouter() async throws {
        try await withServer { port, server in
            _ = try await Self.get(port, "/v1/feed?limit=5")
            let (encoded, encodedResponse) = try await Self.get(port, "/v1/feed?limit=%35")
            #expect(encodedResponse.statusCode == 200)
            #expect(
                ((try JSONSerialization.jsonObject(with: encoded) as? [String: Any])?["items"] as? [Any])?.count == 5)
            for (path, code) in [
                ("/v1/feed?limit=0", "limit_out_of_range"), ("/v1/feed?limit=", "invalid_limit"),
                ("/v1/feed?limit=5&cursor=nope", "invalid_cursor"), ("/v1/feed?limit=999", "limit_out_of_range"),
            ] {
                let (body, response) = try await Self.get(port, path)
                #expect(response.statusCode == 400, "\(path)")
                #expect(String(decoding: body, as: UTF8.self).contains(code), "\(path)")
            }
            #expect(Self.fastAnswers(server) == 1)
        }
    }

    @Test func aVideoPublishedOnAnotherConnectionIsOnTheNextRequest() async throws {
        try await withServer { port, server in
            _ = try await Self.get(port, "/v1/feed?limit=3")
            _ = try await Self.get(port, "/v1/feed?limit=3")
            #expect(Self.fastAnswers(server) == 2)
            let other = SQLiteCatalogEngine(database: try SQLiteCatalogDatabase(path: directory.file("catalog.sqlite")))
            try await other.seed(count: 1, startingAt: 100)
            let (data, _) = try await Self.get(port, "/v1/feed?limit=3")
            let page = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
            #expect((page["items"] as? [[String: Any]])?.first?["id"] as? String == "v000000100")
        }
    }

    @Test func fastAndRoutedRequestsTakeTurnsOnOneConnection() async throws {
        try await withServer { port, server in
            let paths = [
                "/v1/feed?limit=2", "/healthz", "/v1/feed?limit=2", "/v1/videos/none", "/v1/feed?limit=%32",
                "/v1/feed?limit=2",
            ]
            let responses = try await RawConnection.offThePool(
                port: port,
                paths.map {
                    "GET \($0) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: keep-alive\r\n\r\n"
                })
            var statuses: [String] = []
            for (path, response) in zip(paths, responses) {
                statuses.append(response.components(separatedBy: "\r\n").first ?? "")
                if path.hasPrefix("/v1/feed") { #expect(response.contains("\"items\":"), "\(path)") }
            }
            #expect(
                statuses == [
                    "HTTP/1.1 200 OK", "HTTP/1.1 200 OK", "HTTP/1.1 200 OK", "HTTP/1.1 404 Not Found",
                    "HTTP/1.1 200 OK",
                    "HTTP/1.1 200 OK",
                ])
            #expect(Self.fastAnswers(server) == 3)
        }
    }

    @Test func theFastPathGzipsForClientsThatAcceptIt() async throws {
        try await withServer { port, server in
            let request = "GET /v1/feed?limit=5 HTTP/1.1\r\nHost: x\r\nAccept-Encoding: gzip, deflate\r\n\r\n"
            for response in try await RawConnection.offThePool(port: port, [request, request]) {
                let head = response.components(separatedBy: "\r\n\r\n")[0].lowercased()
                #expect(head.contains("content-encoding: gzip") && head.contains("vary: accept-encoding"))
                #expect(head.contains(".5.first.gz\""))
            }
            #expect(Self.fastAnswers(server) == 2)
        }
    }

    @Test func aClientOverTheRateLimitIsRefusedEvenForAKeptPage() async throws {
        // One token every 28 hours: on a loaded machine five requests once took over 100 s, time enough for 0.01/s
        // to refill one.
        try await withServer(rateLimit: RateLimit(requestsPerSecond: 0.00001, burst: 3)) { port, server in
            var statuses: [Int] = []
            for _ in 0..<5 { statuses.append(try await Self.get(port, "/v1/feed?limit=2").1.statusCode) }
            #expect(statuses == [200, 200, 200, 429, 429])
        }
    }
}

/// One keep-alive TCP connection written and read by hand: a request, then its whole response.
final class RawConnection: @unchecked Sendable {  // used by one thread at a time
    let fd: Int32

    init(port: Int) throws {
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        try #require(fd >= 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        // Generous: routed requests run on the concurrency pool, which other tests in this process may hold a while.
        var timeout = timeval(tv_sec: 120, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        try #require(connected == 0)
    }

    deinit { close(fd) }

    /// Sends `request` and reads until one response with its Content-Length body has arrived.
    func exchange(_ request: String) throws -> String {
        let bytes = Array(request.utf8)
        try #require(send(fd, bytes, bytes.count, 0) == bytes.count)
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while !Self.isComplete(received) {
            let count = recv(fd, &buffer, buffer.count, 0)
            try #require(count > 0, "the connection closed or timed out after \(received.count) bytes")
            received += buffer[0..<count]
        }
        return String(decoding: received, as: UTF8.self)
    }

    /// A connection and its exchanges, in order, on a thread of its own: a blocking socket read must not hold one of
    /// the few threads the server in this process needs to answer it, and the requests follow each other at once (a
    /// test task waiting for a cooperative thread between them could outlast the server's idle timeout).
    static func offThePool(port: Int, _ requests: [String]) async throws -> [String] {
        try await withCheckedThrowingContinuation { continuation in
            Thread {
                continuation.resume(
                    with: Result {
                        let connection = try RawConnection(port: port)
                        return try requests.map { try connection.exchange($0) }
                    })
            }.start()
        }
    }

    /// Whether `bytes` hold one whole response: its head and as many body bytes as its Content-Length says.
    static func isComplete(_ bytes: [UInt8]) -> Bool {
        let separator: [UInt8] = Array("\r\n\r\n".utf8)
        guard
            let end = (0...max(0, bytes.count - 4)).first(where: {
                bytes.count >= 4 && Array(bytes[$0..<$0 + 4]) == separator
            })
        else {
            return false
        }
        let head = String(decoding: bytes[..<end], as: UTF8.self)
        let length =
            head.split(separator: "\r\n").first { $0.lowercased().hasPrefix("content-length:") }
            .flatMap { Int($0.split(separator: ":")[1].trimmingCharacters(in: .whitespaces)) } ?? 0
        return bytes.count - (end + 4) >= length
    }
}
