internal import HTTPTypes

/// Why `POST /v1/events` refused a batch. The reason's raw value is both the JSON error's `code` and the `reason` of
/// the `reel_events_rejected_total` metric, so every refusal is counted under the name the client was told.
struct EventRejection: Error, Sendable, Equatable {
    enum Reason: String, CaseIterable, Sendable {
        /// No `Reel-Session` header.
        case sessionRequired = "session_required"
        /// A `Reel-Session` that is not a token, or one that no key of this server signed.
        case sessionInvalid = "session_invalid"
        case sessionExpired = "session_expired"
        /// A body that is not `application/json` (`text/plain` is what a cross-site form or beacon can send).
        case unsupportedMediaType = "unsupported_media_type"
        case badEvents = "bad_events"
        case batchTooLarge = "batch_too_large"
        /// An event names a video that is not published (unknown, still processing, rejected or failed).
        case unknownVideo = "unknown_video"
        case sessionRateLimited = "session_rate_limited"
        case addressRateLimited = "address_rate_limited"
        case queueFull = "events_queue_full"

        var status: HTTPResponse.Status {
            switch self {
            case .sessionRequired, .sessionInvalid, .sessionExpired: .unauthorized
            case .unsupportedMediaType: .unsupportedMediaType
            case .badEvents: .badRequest
            case .batchTooLarge: .contentTooLarge
            case .unknownVideo: .unprocessableContent
            case .sessionRateLimited, .addressRateLimited, .queueFull: .tooManyRequests
            }
        }
    }

    let reason: Reason
    let message: String
    /// Seconds for `Retry-After` (the 429s).
    var retryAfter: Int?

    init(_ reason: Reason, _ message: String, retryAfter: Int? = nil) {
        self.reason = reason
        self.message = message
        self.retryAfter = retryAfter
    }

    /// The answer: the reason's status, `{"error": {"code": reason, "message": ...}}`, and the headers it needs.
    var apiError: APIError {
        var headers = HTTPFields()
        if let retryAfter { headers[.retryAfter] = String(retryAfter) }
        // A 401 names the scheme it wants (RFC 9110 §11.6.1): here, a token from POST /v1/sessions in Reel-Session.
        if reason.status == .unauthorized { headers[.wwwAuthenticate] = #"Reel-Session realm="viewer-events""# }
        return APIError(reason.status, code: reason.rawValue, message: message, headers: headers)
    }

    static func refused(_ refusal: ViewerSessionToken.Refusal) -> EventRejection {
        switch refusal {
        case .malformed:
            EventRejection(.sessionInvalid, "Reel-Session is not a session token; get one from POST /v1/sessions")
        case .forged:
            EventRejection(
                .sessionInvalid, "Reel-Session was not issued by this server; get a new one from POST /v1/sessions")
        case .expired:
            EventRejection(.sessionExpired, "the Reel-Session token has expired; get a new one from POST /v1/sessions")
        }
    }
}

extension HTTPField.Name {
    /// The viewer-session token header of `POST /v1/events` and `POST /v1/sessions`.
    static let reelSession = HTTPField.Name("Reel-Session")!
}
