import Catalog
import Deadlines
import Foundation
import Logging
import SQLiteCatalog
import ServiceLifecycle
import Testing

@testable import FeedServer

#if canImport(Glibc)
import Glibc
#endif

/// Feed pages answered at the socket end, before the HTTP decoder (`FeedWireHandler`): the bytes the decoder's fast
/// path and the router give, connections handed to the decoder for good once anything else arrives, and the idle
/// timeout, graceful shutdown and rate limit as on the decoder's path.
@Suite(.timeLimit(.minutes(5))) struct FeedWireHandlerTests {
    let rig: ServerRig

    init() async throws {
        rig = try ServerRig()
        try await rig.store.seed(count: 12)
    }

    static func count(_ series: String, in server: FeedServer) -> Int {
        let line = server.metricsText.split(separator: "\n").first { $0.hasPrefix(series + " ") }
        return line.flatMap { $0.split(separator: " ").last }.flatMap { Int($0) } ?? 0
    }

    static func request(_ target: String, _ extra: String = "") -> String {
        "GET \(target) HTTP/1.1\r\nHost: 127.0.0.1\r\n\(extra)\r\n"
    }

    /// `response` without its Date line (the second may turn between two answers), and whether it had one.
    static func withoutDate(_ response: String) -> (text: String, hadDate: Bool) {
        let lines = response.components(separatedBy: "\r\n")
        let kept = lines.filter { !$0.hasPrefix("Date: ") }
        let date = lines.first { $0.hasPrefix("Date: ") }
        return (kept.joined(separator: "\r\n"), date?.hasSuffix(" GMT") == true && kept.count == lines.count - 1)
    }

    /// A response's status line, its header lines in order of their text, and its body.
    static func parts(_ response: String) -> [String] {
        let split = response.components(separatedBy: "\r\n\r\n")
        var lines = split[0].components(separatedBy: "\r\n")
        let status = lines.removeFirst()
        return [status] + lines.sorted() + [split.dropFirst().joined(separator: "\r\n\r\n")]
    }

    @Test func theWireAnswersWithTheDecoderPathsAndTheRoutersBytes() async throws {
        try await withLiveServer(rig.server) { [server = rig.server] listening in
            let port = listening.address.port
            let first = try await RawConnection.offThePool(port: port, [Self.request("/v1/feed?limit=5")])[0]
            let etag = try #require(RawSocket.header("etag", in: first))
            let variants = ["", "Accept-Encoding: gzip\r\n", "If-None-Match: \(etag)\r\n"]
            let wire = try await RawConnection.offThePool(
                port: port, variants.map { Self.request("/v1/feed?limit=5", $0) })
            #expect(Self.count("reel_feed_wire_responses_total", in: server) == 4)
            // A header the wire does not take sends the connection to the decoder, where FeedFastPathHandler answers.
            let decoded = try await RawConnection.offThePool(
                port: port, variants.map { Self.request("/v1/feed?limit=5", "X-Path: decoder\r\n" + $0) })
            #expect(Self.count("reel_feed_wire_responses_total", in: server) == 4)
            #expect(Self.count("reel_feed_fast_path_responses_total", in: server) == 7)
            // A percent-escape is the router's.
            let routed = try await RawConnection.offThePool(
                port: port, variants.map { Self.request("/v1/feed?limit=%35", $0) })
            #expect(Self.count("reel_feed_fast_path_responses_total", in: server) == 7)
            for index in variants.indices {
                let (wireText, wireDated) = Self.withoutDate(wire[index])
                #expect(wireDated, "\(wire[index].prefix(400))")
                #expect(wireText == Self.withoutDate(decoded[index]).text, "variant \(index)")
                // The router's headers are the same lines, in Hummingbird's order.
                #expect(Self.parts(wireText) == Self.parts(Self.withoutDate(routed[index]).text), "variant \(index)")
            }
            #expect(wire[0].hasPrefix("HTTP/1.1 200 OK\r\n") && wire[0].contains("\"items\":"))
            #expect(wire[1].contains("Content-Encoding: gzip\r\n"))
            #expect(wire[2].hasPrefix("HTTP/1.1 304 Not Modified\r\n"))
        }
    }

    @Test func pipelinedRequestsGoToTheDecoderAndTheConnectionStaysThere() async throws {
        try await withLiveServer(rig.server) { [server = rig.server] listening in
            let socket = try await RawSocket.offThePool { try RawSocket(port: listening.address.port) }
            let two = Self.request("/v1/feed?limit=2") + Self.request("/v1/feed?limit=3")
            let answers = try await RawSocket.offThePool {
                try socket.send(two)
                var text = ""
                while text.components(separatedBy: "HTTP/1.1 200 OK").count < 3 {
                    let more = socket.receiveAvailable(waiting: 60)
                    guard !more.isEmpty else { break }
                    text += more
                }
                try socket.send(Self.request("/v1/feed?limit=4"))
                return (text, socket.receiveAvailable(waiting: 60))
            }
            #expect(answers.0.components(separatedBy: "HTTP/1.1 200 OK").count == 3)
            #expect(answers.0.contains(".2.first\"") && answers.0.contains(".3.first\""))
            #expect(answers.1.hasPrefix("HTTP/1.1 200 OK") && answers.1.contains(".4.first\""))
            #expect(Self.count("reel_feed_wire_responses_total", in: server) == 0)
            #expect(Self.count("reel_feed_fast_path_responses_total", in: server) == 3)
        }
    }

    @Test func aRequestHiddenInAnotherRequestsBodyIsNeverAnswered() async throws {
        try await withLiveServer(rig.server) { [server = rig.server] listening in
            let hidden = Self.request("/v1/feed?limit=3")
            let outer = Self.request("/v1/feed?limit=2", "Content-Length: \(hidden.utf8.count)\r\n") + hidden
            let text = try await RawSocket.offThePool {
                let socket = try RawSocket(port: listening.address.port)
                try socket.send(outer)
                return socket.receiveAvailable(waiting: 60)
            }
            #expect(text.components(separatedBy: "HTTP/1.1 ").count == 2, "\(text.prefix(600))")
            #expect(!text.contains(".3.first"))
            #expect(Self.count("reel_feed_wire_responses_total", in: server) == 0)
        }
    }

    @Test func aConnectionAnsweredOnTheWireOutlivesTheIdleTimeoutWhileActiveAndCloses() async throws {
        var quick = rig.server
        quick.idleTimeoutSeconds = 3
        let server = quick
        try await withLiveServer(server) { listening in
            let (statuses, closed) = try await RawSocket.offThePool {
                let socket = try RawSocket(port: listening.address.port)
                var statuses: [String] = []
                for _ in 0..<40 {  // 8 s of requests, more than twice the idle timeout
                    try socket.send(Self.request("/v1/feed?limit=2"))
                    var answer = ""
                    while !RawConnection.isComplete(Array(answer.utf8)) {
                        let more = socket.receiveAvailable(waiting: 60)
                        guard !more.isEmpty else { break }
                        answer += more
                    }
                    statuses.append(answer.components(separatedBy: "\r\n").first ?? "")
                    _ = socket.waitUntilReadable(seconds: 0.2)  // nothing is due: a pause between requests
                }
                return (statuses, socket.receiveUntilClosed(quietSeconds: 60).closed)
            }
            #expect(statuses == Array(repeating: "HTTP/1.1 200 OK", count: 40))
            #expect(closed, "an idle connection is closed")
            #expect(Self.count("reel_feed_wire_responses_total", in: server) == 40)
        }
    }

    @Test func aGracefulShutdownClosesAKeepAliveConnectionOnTheWire() async throws {
        let logger = Logger(label: "test")
        let listening = OneShot<Listening>()
        let app = rig.server.application(host: "127.0.0.1", port: 0, logger: logger) { listening.settle(.success($0)) }
        let group = ServiceGroup(configuration: .init(services: [app], logger: logger))
        let running = Task<Void, Never> { try? await group.run() }
        let port = try await withDeadline(.seconds(60), "the server's listener to bind") {
            try await listening.value()
        }.address.port
        let socket = try await RawSocket.offThePool { try RawSocket(port: port) }
        let answer = try await RawSocket.offThePool {
            try socket.send(Self.request("/v1/feed?limit=2"))
            return socket.receiveAvailable(waiting: 60)
        }
        #expect(answer.hasPrefix("HTTP/1.1 200 OK"))
        #expect(Self.count("reel_feed_wire_responses_total", in: rig.server) == 1)
        await group.triggerGracefulShutdown()
        let closed = try await RawSocket.offThePool { socket.receiveUntilClosed(quietSeconds: 60).closed }
        #expect(closed, "the server closed the idle keep-alive connection")
        let stopped = await value(of: running, upTo: .seconds(60)) != nil
        if !stopped { running.cancel() }
        #expect(stopped, "the server stopped")
    }

    @Test func aClientThatStopsSendingGetsItsWholeAnswerThenTheClose() async throws {
        try await withLiveServer(rig.server) { [server = rig.server] listening in
            let (text, closed) = try await RawSocket.offThePool {
                let socket = try RawSocket(port: listening.address.port)
                try socket.send(Self.request("/v1/feed?limit=12"))
                _ = shutdown(socket.fd, Int32(SHUT_WR))
                return socket.receiveUntilClosed(quietSeconds: 60)
            }
            #expect(closed)
            #expect(RawConnection.isComplete(Array(text.utf8)) && text.hasPrefix("HTTP/1.1 200 OK"))
            #expect(Self.count("reel_feed_wire_responses_total", in: server) == 1)
        }
    }

    @Test func aClientOverTheRateLimitIsRefusedOnTheWireToo() async throws {
        let server = FeedServer(
            store: rig.store, media: rig.server.media, rateLimit: RateLimit(requestsPerSecond: 0.00001, burst: 3))
        try await withLiveServer(server) { listening in
            let responses = try await RawConnection.offThePool(
                port: listening.address.port, Array(repeating: Self.request("/v1/feed?limit=2"), count: 5))
            #expect(
                responses.map { $0.components(separatedBy: "\r\n").first ?? "" } == [
                    "HTTP/1.1 200 OK", "HTTP/1.1 200 OK", "HTTP/1.1 200 OK", "HTTP/1.1 429 Too Many Requests",
                    "HTTP/1.1 429 Too Many Requests",
                ])
            #expect(Self.count("reel_feed_wire_responses_total", in: server) == 3)
        }
    }
}
