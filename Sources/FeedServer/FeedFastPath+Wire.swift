internal import Catalog
internal import MediaStore
internal import Metrics
internal import NIOCore

/// The answer to a `FeedWireRequest`, as the bytes the HTTP encoder would write for `respond`'s `HTTPResponse`
/// (FeedWireHandlerTests compares the two, byte for byte).
extension FeedFastPath {
    struct WireAnswer {
        let head: ByteBuffer
        let body: ByteBuffer?
    }

    /// The answer for `request`, or nil when the decoder's path must answer it (the same rules as `decide`): only an
    /// engine that reads in-process, and a page read without error.
    ///
    /// The rate limit is asked after the read, so that a request left to the decoder's path (a bad cursor, a
    /// catalog error) has not taken a token here before `decide` takes one there; a refusal takes none.
    func answer(
        _ request: FeedWireRequest, client: () -> String?, allocator: ByteBufferAllocator
    ) -> WireAnswer? {
        guard let key = Self.feedKey(request.target), let feed = server.store.synchronousFeed else { return nil }
        let started = ContinuousClock.now
        let gzip = AcceptEncoding.acceptsGzip(request.acceptEncoding)
        guard let page = try? server.feedPage(key, gzip: gzip, reading: feed) else { return nil }
        if let limiter = server.rateLimiter, limiter.admit(client: client() ?? "unknown") != nil { return nil }
        logRequest(path: request.target)
        let etag = FeedServer.etag(generation: page.generation, key: key, gzip: page.isGzip)
        defer {
            answered.increment()
            answeredOnWire.increment()
            duration.recordInterval(since: started)
        }
        var head = allocator.buffer(capacity: 320)
        if let ifNoneMatch = request.ifNoneMatch, EntityTag.matches(ifNoneMatch, etag) {
            notModified.increment()
            head.writeStaticString("HTTP/1.1 304 Not Modified\r\n")
            Self.writeFeedFields(etag: etag, gzip: page.isGzip, into: &head)
            Self.writeDateAndServer(into: &head)
            return WireAnswer(head: head, body: nil)
        }
        served.increment()
        head.writeStaticString("HTTP/1.1 200 OK\r\n")
        Self.writeFeedFields(etag: etag, gzip: page.isGzip, into: &head)
        head.writeStaticString("Content-Type: application/json; charset=utf-8\r\nContent-Length: ")
        head.writeString(String(page.body.readableBytes))
        head.writeStaticString("\r\n")
        Self.writeDateAndServer(into: &head)
        return WireAnswer(head: head, body: page.body)
    }

    /// `FeedServer.feedHeaders`, in its order.
    private static func writeFeedFields(etag: String, gzip: Bool, into head: inout ByteBuffer) {
        head.writeStaticString("Cache-Control: ")
        head.writeString(FeedServer.feedCacheControl)
        head.writeStaticString("\r\nETag: ")
        head.writeString(etag)
        head.writeStaticString("\r\nVary: Accept-Encoding\r\n")
        if gzip { head.writeStaticString("Content-Encoding: gzip\r\n") }
    }

    private static func writeDateAndServer(into head: inout ByteBuffer) {
        head.writeStaticString("Date: ")
        head.writeString(HTTPDate.now())
        head.writeStaticString("\r\nServer: reel\r\n\r\n")
    }
}
