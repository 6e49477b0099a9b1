internal import Catalog
internal import Foundation
package import Metrics
internal import ViewerAnalytics

/// Who may write viewer events, and what they may write: the one set of rules for `POST /v1/sessions` and for
/// `POST /v1/events`, on the router and on the fast path alike (docs/security.md, "Viewer events").
/// - A batch carries a session token that this server issued (`Reel-Session`), unexpired.
/// - It is `application/json`, so a page on another origin cannot send one without a CORS preflight, which only the
///   origins named with `--cors-origin` pass.
/// - Each session and each address has a budget (`EventRateLimiter`), on by default.
/// - Every event names a published video.
/// Each refusal is counted in `reel_events_rejected_total{reason}`.
package final class ViewerEventGate: Sendable {
    package let keys: ViewerSessionKeys
    let lifetimeSeconds: Int64
    let limiter: EventRateLimiter
    let published = PublishedVideoCache()
    /// Unix seconds, for the tokens' expiry.
    package let unixClock: @Sendable () -> Int64
    /// Seconds on a monotonic clock, for the buckets.
    let uptimeClock: @Sendable () -> Double
    private let rejected: [EventRejection.Reason: Counter]
    private let issued: Counter

    /// A day: a tab renews its token while it is valid (keeping its session), so this bounds only how long a token
    /// copied out of one stays usable.
    package static let defaultLifetimeSeconds: Int64 = 86_400

    package init(
        keys: ViewerSessionKeys, limits: ViewerEventLimits = .standard,
        lifetimeSeconds: Int64 = defaultLifetimeSeconds, metrics: any MetricsFactory,
        unixClock: @escaping @Sendable () -> Int64 = { Int64(Date().timeIntervalSince1970) },
        uptimeClock: @escaping @Sendable () -> Double = { ProcessInfo.processInfo.systemUptime }
    ) {
        precondition(lifetimeSeconds > 0, "checked by the callers")
        self.keys = keys
        self.lifetimeSeconds = lifetimeSeconds
        limiter = EventRateLimiter(limits: limits)
        self.unixClock = unixClock
        self.uptimeClock = uptimeClock
        var rejected: [EventRejection.Reason: Counter] = [:]
        for reason in EventRejection.Reason.allCases {
            rejected[reason] = Counter(
                label: "reel_events_rejected_total", dimensions: [("reason", reason.rawValue)], factory: metrics)
        }
        self.rejected = rejected
        issued = Counter(label: "reel_viewer_sessions_issued_total", factory: metrics)
    }

    package var limits: ViewerEventLimits { limiter.limits }

    // MARK: Sessions

    /// A token for a new session, or for the same session as `renewing` when that is a valid token of ours.
    /// - Throws: `EventRejection` `address_rate_limited` when `address` has spent its budget.
    func issue(renewing: String?, address: String?) throws(EventRejection) -> ViewerSessionToken {
        if let wait = limiter.admit(address: ClientAddress.budgetKey(address), now: uptimeClock()) {
            throw addressLimited(wait)
        }
        let now = unixClock()
        let current = renewing.flatMap { try? ViewerSessionToken.verify($0, keys: keys, now: now) }
        issued.increment()
        return ViewerSessionToken.issue(
            keys: keys, expiresAt: now + lifetimeSeconds, session: current?.sessionBytes)
    }

    // MARK: Events

    /// The session of a batch whose head says `token` (the `Reel-Session` value) and `contentType`.
    /// - Throws: `EventRejection`: `session_required`, `session_invalid`, `session_expired` (401), or
    ///   `unsupported_media_type` (415).
    func session(token: String?, contentType: String?) throws(EventRejection) -> ViewerSessionToken {
        guard let token else {
            throw EventRejection(
                .sessionRequired,
                "a batch needs a Reel-Session header with a session token from POST /v1/sessions")
        }
        let session: ViewerSessionToken
        do { session = try ViewerSessionToken.verify(token, keys: keys, now: unixClock()) } catch {
            throw .refused(error)
        }
        guard Self.isJSON(contentType) else {
            let given = contentType.map { "\"\($0.prefix(100))\"" } ?? "no Content-Type"
            throw EventRejection(
                .unsupportedMediaType, "a batch must be sent as application/json, not \(given)")
        }
        return session
    }

    /// Takes a token from the session's budget and the address's.
    /// - Throws: `EventRejection` `session_rate_limited` or `address_rate_limited` (429) with the seconds to wait.
    func admit(_ session: ViewerSessionToken, address: String?) throws(EventRejection) {
        switch limiter.admit(
            session: session.session, address: ClientAddress.budgetKey(address), now: uptimeClock())
        {
        case nil: return
        case let .session(wait):
            let limit = limiter.limits.perSession
            let seconds = TokenBucket.retryAfterSeconds(wait)
            throw EventRejection(
                .sessionRateLimited,
                "this session sent more than \(Int(limit.burst)) batches at once or \(limit.requestsPerSecond) a second; retry in \(seconds) s",
                retryAfter: seconds)
        case let .address(wait): throw addressLimited(wait)
        }
    }

    /// The events of `body`, stored under `session`.
    /// - Throws: `EventRejection` `bad_events` (400) or `batch_too_large` (413), naming the first thing wrong.
    func events(_ body: [UInt8], session: ViewerSessionToken) throws(EventRejection) -> [ViewerEvent] {
        do {
            return try ViewerEventBatch.parse(body, session: session.session)
        } catch {
            if case .tooLarge = error { throw EventRejection(.batchTooLarge, error.description) }
            throw EventRejection(.badEvents, error.description)
        }
    }

    /// Whether every video `events` name is published, as far as the cache knows at `generation` (the fast path's
    /// question, asked on the event loop).
    func publishedAnswer(_ events: [ViewerEvent], generation: Int64) -> PublishedVideoCache.Answer {
        published.answer(Self.videos(of: events), generation: generation)
    }

    /// Returns when every video `events` name is published, reading from `store` what the cache does not know.
    /// - Throws: `EventRejection` `unknown_video` (422) for one that is not; `CatalogError` when the catalog cannot
    ///   say.
    func requirePublished(_ events: [ViewerEvent], store: any FeedReading) async throws {
        let videos = Self.videos(of: events)
        guard !videos.isEmpty else { return }
        // The generation first: an answer read after it is at least as new as it.
        let generation = try await store.generation()
        let unknown: [String]
        switch published.answer(videos, generation: generation) {
        case .allPublished: return
        case let .unpublished(video): throw unknownVideo(video, in: events)
        case let .unknown(videos): unknown = videos
        }
        let found = try await store.publishedVideoIDs(among: unknown)
        for video in unknown {
            published.remember(video, isPublished: found.contains(video), generation: generation)
        }
        if let missing = unknown.first(where: { !found.contains($0) }) { throw unknownVideo(missing, in: events) }
    }

    /// Counts a refusal under its reason.
    func count(_ rejection: EventRejection) {
        rejected[rejection.reason]?.increment()
    }

    // MARK: Helpers

    /// `application/json`, with or without parameters (`; charset=utf-8`), in any case. Compared as bytes: with
    /// Foundation's trimming and lowercasing it was a tenth of the gate's cost per batch.
    static func isJSON(_ contentType: String?) -> Bool {
        guard let contentType else { return false }
        var type = contentType.utf8[...]
        if let semicolon = type.firstIndex(of: UInt8(ascii: ";")) { type = type[..<semicolon] }
        while let first = type.first, first == 0x20 || first == 0x09 { type = type.dropFirst() }
        while let last = type.last, last == 0x20 || last == 0x09 { type = type.dropLast() }
        let expected = "application/json".utf8
        return type.count == expected.count
            && zip(type, expected).allSatisfy { byte, wanted in
                (0x41...0x5A).contains(byte) ? byte + 0x20 == wanted : byte == wanted
            }
    }

    /// Whether a batch's head may be a good one: a `Reel-Session` and JSON. The token itself is verified with the
    /// body (`session(token:contentType:)`), once per batch.
    static func headLooksRight(token: String?, contentType: String?) -> Bool {
        token != nil && isJSON(contentType)
    }

    /// The videos `events` name, each once, in the order they first appear.
    static func videos(of events: [ViewerEvent]) -> [String] {
        var seen = Set<String>()
        return events.compactMap { event in
            guard let video = event.video, seen.insert(video).inserted else { return nil }
            return video
        }
    }

    private func unknownVideo(_ video: String, in events: [ViewerEvent]) -> EventRejection {
        let index = events.firstIndex { $0.video == video } ?? 0
        return EventRejection(.unknownVideo, "event \(index): video \"\(video)\" is not a published video")
    }

    private func addressLimited(_ wait: Double) -> EventRejection {
        let limit = limiter.limits.perAddress
        let seconds = TokenBucket.retryAfterSeconds(wait)
        return EventRejection(
            .addressRateLimited,
            "this address sent more than \(Int(limit.burst)) batches or sessions at once or \(limit.requestsPerSecond) a second; retry in \(seconds) s",
            retryAfter: seconds)
    }
}
