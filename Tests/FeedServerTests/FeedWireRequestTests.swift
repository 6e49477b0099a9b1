import NIOCore
import Testing

@testable import FeedServer

/// What `FeedWireHandler` may answer before the HTTP decoder: only a whole, plain feed request, and nothing the
/// decoder could read another way (a second request, a body, a folded or repeated header, a bare line end).
@Suite(.timeLimit(.minutes(1))) struct FeedWireRequestTests {
    static func parse(_ text: String) -> FeedWireRequest? { FeedWireRequest(ByteBuffer(string: text)) }

    @Test func aPlainRequestIsReadWithItsTargetAndTheHeadersThatChangeTheAnswer() throws {
        let request = try #require(
            Self.parse(
                "GET /v1/feed?limit=20&cursor=djE6MTIz HTTP/1.1\r\nHOST: 127.0.0.1:8080\r\nUser-Agent: wrk\r\n"
                    + "Accept: */*\r\naccept-encoding:  gzip, br \t\r\nIf-None-Match: \"7.20.first\"\r\n"
                    + "Connection: Keep-Alive\r\n\r\n"))
        #expect(request.target == "/v1/feed?limit=20&cursor=djE6MTIz")
        #expect(request.acceptEncoding == "gzip, br")
        #expect(request.ifNoneMatch == "\"7.20.first\"")
        #expect(
            Self.parse("GET /v1/feed HTTP/1.1\r\nHost: x\r\n\r\n")
                == FeedWireRequest(target: "/v1/feed", acceptEncoding: nil, ifNoneMatch: nil))
    }

    static let declined: [String] = [
        // Not one whole request in the read: partial, pipelined, or a body behind it.
        "GET /v1/feed?limit=20 HTTP/1.1\r\nHost: x\r\n",
        "GET /v1/feed?limit=20 HTTP/1.1\r\nHost: x\r\n\r\nGET /v1/feed?limit=20 HTTP/1.1\r\nHost: x\r\n\r\n",
        "GET /v1/feed?limit=20 HTTP/1.1\r\nHost: x\r\n\r\nx",
        // Framing and expectations: the decoder would read a body, or answer 100-continue.
        "GET /v1/feed HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\n\r\n",
        "GET /v1/feed HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n",
        "GET /v1/feed HTTP/1.1\r\nHost: x\r\nExpect: 100-continue\r\n\r\n",
        // Another method, version or target.
        "HEAD /v1/feed HTTP/1.1\r\nHost: x\r\n\r\n",
        "get /v1/feed HTTP/1.1\r\nHost: x\r\n\r\n",
        "GET /v1/feed HTTP/1.0\r\nHost: x\r\n\r\n",
        "GET /v1/feed?limit=%32%30 HTTP/1.1\r\nHost: x\r\n\r\n",
        "GET /v1/feed?limit=20#x HTTP/1.1\r\nHost: x\r\n\r\n",
        "GET /v1/feed?limit=20  HTTP/1.1\r\nHost: x\r\n\r\n",
        "GET /v1/feed\u{7F} HTTP/1.1\r\nHost: x\r\n\r\n",
        "GET http://x/v1/feed HTTP/1.1\r\nHost: x\r\n\r\n",
        // Headers it cannot vouch for, or written in a way another parser might read differently.
        "GET /v1/feed HTTP/1.1\r\n\r\n",
        "GET /v1/feed HTTP/1.1\r\nHost: x\r\nHost: y\r\n\r\n",
        "GET /v1/feed HTTP/1.1\r\nHost: x\r\nAccept-Encoding: gzip\r\nAccept-Encoding: br\r\n\r\n",
        "GET /v1/feed HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n",
        "GET /v1/feed HTTP/1.1\r\nHost: x\r\nConnection: keep-alive, Upgrade\r\n\r\n",
        "GET /v1/feed HTTP/1.1\r\nHost: x\r\nOrigin: https://example.com\r\n\r\n",
        "GET /v1/feed HTTP/1.1\r\nHost: x\r\nX-Anything: 1\r\n\r\n",
        "GET /v1/feed HTTP/1.1\r\nHost: x\r\nAccept: a\r\n b\r\n\r\n",
        "GET /v1/feed HTTP/1.1\r\nHost : x\r\n\r\n",
        "GET /v1/feed HTTP/1.1\nHost: x\r\n\r\n",
        "GET /v1/feed HTTP/1.1\r\nHost: x\nAccept: y\r\n\r\n",
        "GET /v1/feed HTTP/1.1\r\nHost: x\rAccept: y\r\n\r\n",
        "GET /v1/feed HTTP/1.1\r\nHost: x\u{0}y\r\n\r\n",
        "GET /v1/feed HTTP/1.1\r\nHost: é\r\n\r\n",
        "GET /v1/feed HTTP/1.1\r\nHost: x\r\nIf-None-Match: \"a\"\r\nIf-None-Match: \"b\"\r\n\r\n",
        "GET /v1/feed HTTP/1.1\r\nHost: x\r\nAccept: a\r\nAccept: b\r\n\r\n",
        "GET /v1/feed HTTP/1.1\r\nHost: x\r\nUser-Agent: " + String(repeating: "a", count: 2100) + "\r\n\r\n",
    ]

    @Test(arguments: declined.indices) func anythingButAPlainWholeRequestIsLeftToTheDecoder(_ index: Int) {
        #expect(Self.parse(Self.declined[index]) == nil, "\(Self.declined[index].debugDescription)")
    }
}
