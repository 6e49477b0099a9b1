import Foundation
import Testing

@testable import FeedServer

/// `Expect: 100-continue` on raw sockets (issue 62): the 100 goes out only once the token is accepted. A request
/// without a good token gets its 401 with no 100 before it, and the connection closes without the server waiting
/// for, or reading, the 3 MB body the client was about to send.
@Suite(.timeLimit(.minutes(5))) struct ExpectContinueTests {
    let uploads: UploadServerRig

    init() async throws { uploads = try await UploadServerRig() }

    static let bodyLength = 3_000_000

    /// Sends only `head` and reads until the server closes the connection (or 60 s of silence).
    static func headOnly(_ head: String, port: Int) async throws -> (answer: String, closed: Bool) {
        let (answer, closed) = try await RawSocket.offThePool {
            let socket = try RawSocket(port: port)
            try socket.send(head)
            return socket.receiveUntilClosed()
        }
        return (answer, closed)
    }

    static func patch(_ location: String, authorization: String?) -> String {
        "PATCH \(location) HTTP/1.1\r\nHost: x\r\n" + (authorization.map { "Authorization: \($0)\r\n" } ?? "")
            + "Tus-Resumable: 1.0.0\r\nUpload-Offset: 0\r\nContent-Type: application/offset+octet-stream\r\n"
            + "Content-Length: \(bodyLength)\r\nExpect: 100-continue\r\n\r\n"
    }

    @Test(arguments: [nil, "Bearer not-a-token", "Basic cmVlbDpyZWVs"])
    func aPatchWithoutAGoodTokenGets401WithoutA100AndIsClosedUnread(_ authorization: String?) async throws {
        try await withLiveServer(uploads.server) { [uploads] listening in
            let port = listening.address.port
            let location = try await uploads.create(length: Self.bodyLength + 1, port: port)
            let (answer, closed) = try await Self.headOnly(
                Self.patch(location, authorization: authorization), port: port)
            #expect(answer.hasPrefix("HTTP/1.1 401 "), "\(answer)")
            #expect(!answer.contains(" 100 "), "\(answer)")
            #expect(RawSocket.header("connection", in: answer) == "close", "\(answer)")
            #expect(closed, "the server kept the connection open, waiting for a body it had not asked for")
            #expect(try await uploads.offset(of: location, port: port) == 0)
        }
    }

    @Test func aCreationWithUploadWithoutATokenGets401WithoutA100() async throws {
        try await withLiveServer(uploads.server) { listening in
            let (answer, closed) = try await Self.headOnly(
                "POST /v1/uploads HTTP/1.1\r\nHost: x\r\nTus-Resumable: 1.0.0\r\nUpload-Length: \(Self.bodyLength)\r\n"
                    + "Content-Type: application/offset+octet-stream\r\nContent-Length: \(Self.bodyLength)\r\n"
                    + "Expect: 100-continue\r\n\r\n",
                port: listening.address.port)
            #expect(answer.hasPrefix("HTTP/1.1 401 "), "\(answer)")
            #expect(!answer.contains(" 100 "), "\(answer)")
            #expect(closed)
        }
    }

    /// With the token accepted the 100 comes, alone; then the body is taken and the connection stays usable.
    @Test func anAuthenticatedPatchGets100ThenItsBodyIsTaken() async throws {
        try await withLiveServer(uploads.server) { [uploads] listening in
            let port = listening.address.port
            let location = try await uploads.create(length: Self.bodyLength + 1, port: port)
            let head = Self.patch(location, authorization: "Bearer \(uploads.token)")
            let (interim, final, next) = try await RawSocket.offThePool {
                let socket = try RawSocket(port: port)
                try socket.send(head)
                let interim = socket.receiveAvailable(waiting: 60)
                try socket.send(UploadServerRig.mp4Like(Self.bodyLength))
                let final = socket.receiveAvailable(waiting: 60)
                try socket.send("HEAD \(location) HTTP/1.1\r\nHost: x\r\n\(uploads.tus)\r\n")
                return (interim, final, socket.receiveAvailable(waiting: 60))
            }
            #expect(interim == "HTTP/1.1 100 Continue\r\n\r\n")
            #expect(final.hasPrefix("HTTP/1.1 204 "), "\(final)")
            #expect(RawSocket.header("upload-offset", in: final) == String(Self.bodyLength))
            #expect(next.hasPrefix("HTTP/1.1 200 "), "\(next)")
        }
    }
}
