import Catalog
import Deadlines
import Foundation
import SQLiteCatalog
import TestServers
import Testing

@testable import FeedServer

/// `--max-connections` on real sockets (issue 62): past the cap a connection is answered 503 and closed before
/// anything of it is read, the log says so once (not once per refusal), the operations listener still answers, and
/// a place that frees up is taken again.
@Suite(.timeLimit(.minutes(5))) struct ConnectionCapTests {
    let rig: ServerRig

    init() async throws {
        rig = try ServerRig()
        try await rig.store.seed(count: 2)
    }

    static let feedRequest = "GET /v1/feed?limit=1 HTTP/1.1\r\nHost: x\r\n\r\n"

    @Test func aConnectionPastTheCapIsAnswered503AndClosedAndTheLogSaysSoOnce() async throws {
        var server = rig.server
        server.maxConnections = 2
        server.adminAddress = .loopback
        let logs = LogLines()
        try await withLiveServer(server, logger: logs.logger()) { listening in
            let port = listening.address.port
            var held: [RawSocket]
            let refusals: [(text: String, closed: Bool)]
            (held, refusals) = try await RawSocket.offThePool {
                // Two connections, each answered once and kept open: the cap is reached.
                let held = try (0..<2).map { _ in try RawSocket(port: port) }
                var answers: [String] = []
                for socket in held {
                    try socket.send(Self.feedRequest)
                    answers.append(socket.receiveAvailable(waiting: 60))
                }
                try #require(answers.allSatisfy { $0.hasPrefix("HTTP/1.1 200 ") }, "\(answers)")
                let refusals = try (0..<3).map { _ in try RawSocket(port: port).receiveUntilClosed() }
                return (held, refusals)
            }
            for refusal in refusals {
                #expect(refusal.text.hasPrefix("HTTP/1.1 503 "), "\(refusal.text)")
                #expect(refusal.text.contains(#""code":"too_many_connections""#))
                #expect(refusal.closed)
            }
            let admin = try #require(listening.admin)
            let metrics = try await OperationsSurfaceTests.get(admin.port, "/metrics")
            #expect(metrics.body.contains("reel_http_connections_refused_total 3"), "\(metrics.body)")
            #expect(logs.all.filter { $0.hasPrefix("connection cap reached") }.count == 1, "\(logs.all)")

            // One held connection closes; its place is given back once the server has seen it close.
            held.removeFirst()
            try await withDeadline(.seconds(60), "a place under the cap after a connection closed") {
                while true {
                    let answer = try await RawSocket.offThePool {
                        let socket = try RawSocket(port: port)
                        try socket.send(Self.feedRequest)
                        return socket.receiveAvailable(waiting: 60)
                    }
                    if answer.hasPrefix("HTTP/1.1 200 ") { return }
                    try await Task.sleep(for: .milliseconds(50))
                }
            }
            withExtendedLifetime(held) {}
        }
    }
}
