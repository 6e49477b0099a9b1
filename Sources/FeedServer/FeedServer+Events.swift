internal import Catalog
internal import Foundation
internal import Hummingbird
internal import ViewerAnalytics

/// `POST /v1/sessions`, a session token for a viewer's tab; `POST /v1/events`, a batch of that session's viewer
/// events (docs/analytics.md), answered 204 once it is committed; `GET /v1/videos/{id}/stats`, what they add up to.
/// What a batch must be is `ViewerEventGate`'s to say (docs/security.md, "Viewer events").
extension FeedServer {
    func addEventRoutes(to router: Router<FeedRequestContext>, ingest: ViewerEventIngest) {
        router.post("/v1/sessions") { request, context in try self.postSession(request, context: context) }
        router.post("/v1/events") { request, context in
            try await self.postEvents(request, context: context, ingest: ingest)
        }
        router.get("/v1/videos/:id/stats") { _, context in
            try await self.videoStats(id: context.parameters.require("id"), log: ingest.log)
        }
    }

    /// The last roll-up's figures for a published video; one with no view yet has zeros and no startup.
    func videoStats(id: String, log: any ViewerEventLog) async throws -> Response {
        guard try await store.video(id: id) != nil else { throw APIError.notFound("video \"\(id.prefix(64))\"") }
        let stats =
            try await log.videoStats(video: id)
            ?? VideoStats(
                video: id, views: 0, sessions: 0, startupMedianMilliseconds: nil, startupP90Milliseconds: nil,
                rebufferRatio: 0, meanWatchedFraction: 0, completionRate: 0, bytesPerView: 0, retention: [])
        return JSONBody.response(stats, headers: [.cacheControl: "no-cache"])
    }

    /// A new session's token; with a valid token in `Reel-Session`, a new token for the same session.
    func postSession(_ request: Request, context: FeedRequestContext) throws -> Response {
        let token: ViewerSessionToken
        do {
            token = try eventGate.issue(
                renewing: request.headers[.reelSession], address: context.remoteAddress?.ipAddress)
        } catch {
            throw error.apiError
        }
        let body = SessionBody(
            session: token.session, token: token.text, expiresIn: max(0, token.expiresAt - eventGate.unixClock()))
        return JSONBody.response(body, headers: [.cacheControl: "no-store"])
    }

    struct SessionBody: Encodable {
        let session: String
        let token: String
        /// Seconds from now: a client's clock may be off, so it is not told an instant.
        let expiresIn: Int64

        enum CodingKeys: String, CodingKey {
            case session, token
            case expiresIn = "expires_in"
        }
    }

    func postEvents(_ request: Request, context: FeedRequestContext, ingest: ViewerEventIngest) async throws -> Response
    {
        let gate = eventGate
        do {
            // What the head says first (cheapest, and the body of a refused batch is never read): the session,
            // the content type, the budgets. Then the body, and the catalog for its videos.
            let session = try gate.session(
                token: request.headers[.reelSession], contentType: request.headers[.contentType])
            try gate.admit(session, address: context.remoteAddress?.ipAddress)
            let body = try await Self.collect(request.body, limit: ViewerEventBatch.maximumBytes)
            let events = try gate.events(body, session: session)
            try await gate.requirePublished(events, store: store)
            do {
                try await ingest.commit(Self.received(events))
            } catch let ViewerEventIngest.Refusal.queueFull(waiting, limit) {
                throw EventRejection(
                    .queueFull,
                    "the server holds \(waiting) events waiting to be stored (limit \(limit)); send the batch again later",
                    retryAfter: Self.eventsRetryAfterSeconds)
            }
        } catch let rejection as EventRejection {
            gate.count(rejection)
            throw rejection.apiError
        }
        return Response(status: .noContent, headers: [.cacheControl: "no-store"])
    }

    static let eventsRetryAfterSeconds = 2

    /// A batch as stored: every event stamped with the time the server received the batch, on either path.
    static func received(_ events: [ViewerEvent]) -> [ReceivedViewerEvent] {
        let now = Int64(Date().timeIntervalSince1970 * 1000)
        return events.map { ReceivedViewerEvent(receivedAt: now, event: $0) }
    }

    /// The body, refused as soon as it passes `limit` bytes rather than read whole.
    static func collect(_ body: RequestBody, limit: Int) async throws -> [UInt8] {
        var bytes: [UInt8] = []
        for try await buffer in body {
            guard bytes.count + buffer.readableBytes <= limit else {
                throw EventRejection(.batchTooLarge, "the batch is larger than the limit of \(limit) bytes")
            }
            bytes += buffer.readableBytesView
        }
        return bytes
    }
}
