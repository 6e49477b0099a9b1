import Foundation
import Testing

@testable import FeedServer

/// `--request-timeout` and `--min-body-rate` on real sockets (issue 62): a head or a body trickled a byte every
/// 2 s is answered 408 and closed long before it ends, while an upload that keeps up the minimum rate takes as long
/// as it needs, pauses included. The server here allows 1 s, and 1 s more per 500 bytes of body.
@Suite(.timeLimit(.minutes(5))) struct RequestDeadlineTests {
    let uploads: UploadServerRig
    let server: FeedServer

    init() async throws {
        uploads = try await UploadServerRig()
        var server = uploads.server
        server.requestDeadlines = RequestDeadlines(timeout: .seconds(1), minimumBodyRate: 500)
        self.server = server
    }

    /// Sends `head`, then `count` bytes one every 2 s, until the server answers or closes.
    /// - Returns: the bytes it took, what it answered, and whether it closed the connection.
    static func trickle(
        _ head: String, count: Int, to port: Int
    ) async throws -> (sent: Int, answer: String, closed: Bool) {
        try await RawSocket.offThePool {
            let socket = try RawSocket(port: port)
            try socket.send(head)
            var sent = 0
            while sent < count, !socket.waitUntilReadable(seconds: 2) {
                guard socket.sendWithoutWaiting([UInt8(ascii: "a")]) == 1 else { break }
                sent += 1
            }
            let (answer, closed) = socket.receiveUntilClosed()
            return (sent, answer, closed)
        }
    }

    @Test func aBodyTrickledAByteEveryTwoSecondsIsCutOffWith408() async throws {
        try await withLiveServer(server) { [uploads] listening in
            let port = listening.address.port
            let location = try await uploads.create(length: 31, port: port)
            let outcome = try await Self.trickle(
                "PATCH \(location) HTTP/1.1\r\nHost: x\r\n\(uploads.tus)Upload-Offset: 0\r\n"
                    + "Content-Type: application/offset+octet-stream\r\nContent-Length: 30\r\n\r\n",
                count: 30, to: port)
            #expect(outcome.sent < 30, "the server took the whole trickled body: \(outcome.answer)")
            #expect(outcome.answer.hasPrefix("HTTP/1.1 408 "), "\(outcome.answer)")
            #expect(outcome.answer.contains(#""code":"request_timeout""#), "\(outcome.answer)")
            #expect(RawSocket.header("connection", in: outcome.answer) == "close")
            #expect(outcome.closed)
            // What arrived before the cut is kept, as for any interrupted PATCH: the client resumes from HEAD.
            let offset = try #require(try await uploads.offset(of: location, port: port))
            #expect(offset <= outcome.sent)
        }
    }

    @Test func aHeadTrickledAByteEveryTwoSecondsIsCutOffWith408() async throws {
        try await withLiveServer(server) { listening in
            let outcome = try await Self.trickle(
                "GET /v1/feed HTTP/1.1\r\nHost: x\r\nX-Slow: ", count: 30, to: listening.address.port)
            #expect(outcome.sent < 30, "the server waited for the whole trickled head: \(outcome.answer)")
            #expect(outcome.answer.hasPrefix("HTTP/1.1 408 "), "\(outcome.answer)")
            #expect(outcome.closed)
        }
    }

    /// 2 MB in 32 KB pieces with a pause of 2 s (twice the timeout) after the first MB: far over the timeout in
    /// all, never behind the minimum rate, so it is taken whole.
    @Test func anUploadThatKeepsUpTheMinimumRateIsNotCutHoweverLongItTakes() async throws {
        try await withLiveServer(server) { [uploads] listening in
            let port = listening.address.port
            let length = 2 << 20
            let location = try await uploads.create(length: length + 1, port: port)
            let head =
                "PATCH \(location) HTTP/1.1\r\nHost: x\r\n\(uploads.tus)Upload-Offset: 0\r\n"
                + "Content-Type: application/offset+octet-stream\r\nContent-Length: \(length)\r\n\r\n"
            let answer = try await RawSocket.offThePool {
                let socket = try RawSocket(port: port)
                try socket.send(head)
                let body = UploadServerRig.mp4Like(length)
                let piece = 32 << 10
                for index in 0..<(length / piece) {
                    try socket.send(Array(body[index * piece..<(index + 1) * piece]))
                    Thread.sleep(forTimeInterval: index == 32 ? 2 : 0.03)  // blocking-ok: on offThePool's own thread
                }
                return socket.receiveAvailable(waiting: 60)
            }
            #expect(answer.hasPrefix("HTTP/1.1 204 "), "\(answer)")
            #expect(RawSocket.header("upload-offset", in: answer) == String(length))
        }
    }
}
