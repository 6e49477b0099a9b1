internal import FeedStore
internal import Foundation
internal import Hummingbird
internal import ViewerAnalytics

/// `POST /v1/events`: a batch of viewer events (docs/analytics.md), answered 204 once it is committed.
extension FeedServer {
    func addEventRoutes(to router: Router<FeedRequestContext>, ingest: ViewerEventIngest) {
        router.post("/v1/events") { request, _ in try await self.postEvents(request, ingest: ingest) }
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

    func postEvents(_ request: Request, ingest: ViewerEventIngest) async throws -> Response {
        let body = try await Self.collect(request.body, limit: ViewerEventBatch.maximumBytes)
        let events: [ViewerEvent]
        do {
            events = try ViewerEventBatch.parse(body)
        } catch {
            if case .tooLarge = error {
                throw APIError(.contentTooLarge, code: "batch_too_large", message: error.description)
            }
            throw APIError(.badRequest, code: "bad_events", message: error.description)
        }
        do {
            try await ingest.commit(Self.received(events))
        } catch let ViewerEventIngest.Refusal.queueFull(waiting, limit) {
            throw APIError(
                .tooManyRequests, code: "events_queue_full",
                message:
                    "the server holds \(waiting) events waiting to be stored (limit \(limit)); send the batch again later",
                headers: [.retryAfter: String(Self.eventsRetryAfterSeconds)])
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
                throw APIError(
                    .contentTooLarge, code: "batch_too_large",
                    message: "the batch is larger than the limit of \(limit) bytes")
            }
            bytes += buffer.readableBytesView
        }
        return bytes
    }
}
