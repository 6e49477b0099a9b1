package import Hummingbird
internal import NIOCore

/// Sends `Expect: 100-continue`'s 100 when the handler first reads the body (`ExpectContinueHandler` writes it), not
/// when the request arrives: a handler that refuses the request before reading (a missing or wrong token) answers
/// without inviting the body.
struct ExpectContinueMiddleware: RouterMiddleware {
    typealias Context = FeedRequestContext

    func handle(
        _ request: Request, context: FeedRequestContext, next: (Request, FeedRequestContext) async throws -> Response
    ) async throws -> Response {
        guard let channel = context.channel, request.headers[.expect]?.lowercased() == "100-continue" else {
            return try await next(request, context)
        }
        var request = request
        request.body = RequestBody(asyncSequence: ContinueOnFirstRead(body: request.body, channel: channel))
        return try await next(request, context)
    }
}

/// A request body that asks for the 100 on its first read.
struct ContinueOnFirstRead: AsyncSequence, Sendable {
    typealias Element = ByteBuffer
    let body: RequestBody
    let channel: any Channel

    struct AsyncIterator: AsyncIteratorProtocol {
        var base: RequestBody.AsyncIterator
        let channel: any Channel
        var invited = false

        mutating func next() async throws -> ByteBuffer? {
            if !invited {
                invited = true
                channel.triggerUserOutboundEvent(ExpectContinueHandler.SendContinue(), promise: nil)
            }
            return try await base.next()
        }
    }

    func makeAsyncIterator() -> AsyncIterator { AsyncIterator(base: body.makeAsyncIterator(), channel: channel) }
}
