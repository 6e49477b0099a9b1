import Catalog
import Foundation
import Hummingbird
import HummingbirdTesting
import Logging
import MediaFixtures
import MediaModel
import SQLiteCatalog
import Testing
import ViewerAnalytics

@testable import FeedServer

#if canImport(Glibc)
import Glibc
#endif

/// Requests whose body the HTTP/1.1 decoder refuses part-way, on a real socket (only there does the decoder run).
/// `scripts/fuzz-serve.sh`'s raw fuzzer found each answered 500: the handler reading the body got NIO's
/// `HTTPParserError` and the error middleware's catch-all made it an internal error. They are the client's fault.
@Suite(.timeLimit(.minutes(5))) struct MalformedRequestTests {
    let rig: ServerRig
    let token: String

    init() async throws {
        rig = try ServerRig()
        let (secret, hash) = try BearerToken.generate()
        try await rig.store.createToken(UploadToken(id: "fuzz", name: "fuzz", hash: hash, rateLimit: nil, createdAt: 1))
        token = secret
    }

    func withServer(_ body: @escaping @Sendable (Int) async throws -> Void) async throws {
        var server = rig.server
        server.uploads = try UploadDesk(
            store: rig.store,
            configuration: UploadConfiguration(library: rig.directory.file("library"), limits: .default))
        server.viewerEvents = ViewerEventIngest(log: rig.store)
        let app = server.application(host: "127.0.0.1", port: 0, logger: Logger(label: "test"))
        try await app.test(.live) { client in try await body(try #require(client.port)) }
    }

    var tus: String { "Authorization: Bearer \(token)\r\nTus-Resumable: 1.0.0\r\n" }

    /// The fuzzer's reproducers, shortened: a chunk size that is not hex, a chunk without its CRLF, and a body the
    /// client cut off (then half-closed, so it can still read the answer).
    static let bodies: [(name: String, framing: String, body: String, halfClose: Bool)] = [
        ("bad chunk size", "Transfer-Encoding: chunked", "zz\r\nabc\r\n0\r\n\r\n", false),
        ("chunk without CRLF", "Transfer-Encoding: chunked", "3\r\nabc0\r\n\r\n", false),
        ("body cut off", "Content-Length: 10", "@", true),
    ]

    @Test(arguments: 0..<bodies.count)
    func aCreationWithUploadWhoseBodyIsNotHTTPIsA400(_ index: Int) async throws {
        let (name, framing, body, halfClose) = Self.bodies[index]
        try await withServer { port in
            let request =
                "POST /v1/uploads HTTP/1.1\r\nHost: x\r\n\(tus)Upload-Length: 64\r\n"
                + "Content-Type: application/offset+octet-stream\r\n\(framing)\r\n\r\n\(body)"
            let answer = try await Self.send(request, to: port, halfClose: halfClose)
            #expect(answer.hasPrefix("HTTP/1.1 400 "), "\(name): \(answer)")
            #expect(answer.contains(#""code":"malformed_request""#), "\(name): \(answer)")
            #expect(answer.lowercased().contains("tus-resumable: 1.0.0"), "\(name): \(answer)")
        }
    }

    @Test func aPatchCutByABadChunkIsA400AndKeepsTheChunksBeforeIt() async throws {
        try await withServer { port in
            let created = try await Self.send(
                "POST /v1/uploads HTTP/1.1\r\nHost: x\r\n\(tus)Upload-Length: 600\r\nContent-Length: 0\r\n\r\n",
                to: port)
            let location = try #require(Self.header("location", in: created), "\(created)")
            let patched = try await Self.send(
                "PATCH \(location) HTTP/1.1\r\nHost: x\r\n\(tus)Upload-Offset: 0\r\n"
                    + "Content-Type: application/offset+octet-stream\r\nTransfer-Encoding: chunked\r\n\r\n"
                    + "5\r\nhello\r\n-1\r\nabc\r\n0\r\n\r\n", to: port)
            #expect(patched.hasPrefix("HTTP/1.1 400 "), "\(patched)")
            #expect(patched.contains(#""code":"malformed_request""#), "\(patched)")
            let head = try await Self.send(
                "HEAD \(location) HTTP/1.1\r\nHost: x\r\n\(tus)Connection: close\r\n\r\n", to: port)
            #expect(Self.header("upload-offset", in: head) == "5", "\(head)")
        }
    }

    @Test(arguments: 0..<bodies.count)
    func anEventsBatchWhoseBodyIsNotHTTPIsA400(_ index: Int) async throws {
        let (name, framing, body, halfClose) = Self.bodies[index]
        try await withServer { port in
            // The events fast path answers a bare 400 itself; `Connection: close` sends the batch to the router,
            // where the 500s were.
            for close in [false, true] {
                let request =
                    "POST /v1/events HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                    + "Reel-Session: \(rig.sessionToken())\r\n" + (close ? "Connection: close\r\n" : "")
                    + "\(framing)\r\n\r\n\(body)"
                let answer = try await Self.send(request, to: port, halfClose: halfClose)
                #expect(answer.hasPrefix("HTTP/1.1 400 "), "\(name), close \(close): \(answer)")
                if close { #expect(answer.contains(#""code":"malformed_request""#), "\(name): \(answer)") }
            }
        }
    }

    /// The response's header `name` (lowercased), or nil.
    static func header(_ name: String, in response: String) -> String? {
        EventsFastPathTests.header(name, in: response)
    }

    /// Sends `request` on a connection of its own, optionally half-closes it, and reads one whole answer (or what
    /// came before the server closed), on a thread of its own as `RawConnection.offThePool` does.
    static func send(_ request: String, to port: Int, halfClose: Bool = false) async throws -> String {
        try await withCheckedThrowingContinuation { continuation in
            Thread {
                continuation.resume(
                    with: Result {
                        let connection = try RawConnection(port: port)
                        let bytes = Array(request.utf8)
                        try #require(Glibc.send(connection.fd, bytes, bytes.count, 0) == bytes.count)
                        if halfClose { shutdown(connection.fd, Int32(SHUT_WR)) }
                        var received: [UInt8] = []
                        var buffer = [UInt8](repeating: 0, count: 65536)
                        while !RawConnection.isComplete(received) {
                            let count = recv(connection.fd, &buffer, buffer.count, 0)
                            guard count > 0 else { break }
                            received += buffer[0..<count]
                        }
                        return String(decoding: received, as: UTF8.self)
                    })
            }.start()
        }
    }
}
