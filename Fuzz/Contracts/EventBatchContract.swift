internal import MediaModel
internal import ViewerAnalytics

/// `POST /v1/events` from any browser: a batch is refused with a reason, or read into at most 100 events whose every
/// field is inside its limit, all of the session the server gives; the events, sent again as a player would send
/// them, read back the same.
enum EventBatchContract {
    static let target = FuzzTarget(
        name: "event-batch", contract: "accepted events are inside every limit and read back the same when resent"
    ) { (bytes: [UInt8]) throws(ContractBroken) in
        let events: [ViewerEvent]
        do throws(ViewerEventError) { events = try ViewerEventBatch.parse(bytes, session: session) } catch {
            try expect(!error.description.isEmpty, "a refusal without a reason")
            return
        }
        try expect(events.count <= ViewerEventBatch.maximumEvents, "\(events.count) events were accepted")
        for event in events { try expect(inLimits(event), "an event outside its limits was accepted: \(event)") }
        try expect(events.allSatisfy { $0.session == session }, "an event of another session was accepted")
        let resent = "[" + events.map(wire).joined(separator: ",") + "]"
        let again: [ViewerEvent]
        do { again = try ViewerEventBatch.parse(Array(resent.utf8), session: session) } catch {
            throw ContractBroken("\(resent.prefix(300)), resent from accepted events, was refused: \(error)")
        }
        try expect(again == events, "\(resent.prefix(300)) read back as other events")
    }

    /// The session of every batch, as the server takes it from the batch's token.
    private static let session = "0123456789abcdef0123456789abcdef"

    private static func isIdentifier(_ text: String, limit: Int = 64) -> Bool {
        !text.isEmpty && text.utf8.count <= limit
            && text.utf8.allSatisfy {
                $0 == 0x2D || $0 == 0x5F || (0x30...0x39).contains($0) || (0x41...0x5A).contains($0)
                    || (0x61...0x7A).contains($0)
            }
    }

    private static func inLimits(_ event: ViewerEvent) -> Bool {
        guard isIdentifier(event.session), event.video.map({ isIdentifier($0) }) ?? true else { return false }
        let milliseconds = 0...600_000, seconds = 0.0...3600.0
        switch event.kind {
        case let .viewStart(rendition, startup): return isIdentifier(rendition, limit: 32) && milliseconds ~= startup
        case let .stall(duration): return milliseconds ~= duration
        case let .progress(position, watched): return seconds ~= position && seconds ~= watched
        case let .viewEnd(watched, _, bytes): return seconds ~= watched && (0...10_000_000_000) ~= bytes
        case let .segment(bytes, ms): return (1...10_000_000_000) ~= bytes && (1...600_000) ~= ms
        case let .error(message): return message.count <= 500
        }
    }

    /// The event as the web client's events.js sends it (its session goes in the batch's token).
    private static func wire(_ event: ViewerEvent) -> String {
        var fields: [(String, JSONValue)] = []
        if let video = event.video { fields.append(("video", .string(video))) }
        switch event.kind {
        case let .viewStart(rendition, startup):
            fields += [
                ("type", .string("view_start")), ("rendition", .string(rendition)),
                ("startup_ms", .integer(Int64(startup))),
            ]
        case let .stall(duration): fields += [("type", .string("stall")), ("duration_ms", .integer(Int64(duration)))]
        case let .progress(position, watched):
            fields += [
                ("type", .string("progress")), ("position_s", .number(position)), ("watched_s", .number(watched)),
            ]
        case let .viewEnd(watched, completed, bytes):
            fields += [
                ("type", .string("view_end")), ("watched_s", .number(watched)), ("completed", .bool(completed)),
                ("bytes", .integer(Int64(bytes))),
            ]
        case let .segment(bytes, ms):
            fields += [("type", .string("segment")), ("bytes", .integer(Int64(bytes))), ("ms", .integer(Int64(ms)))]
        case let .error(message): fields += [("type", .string("error")), ("message", .string(message))]
        }
        return "{" + fields.map { JSONText.quoted($0.0) + ":" + JSONText.write($0.1) }.joined(separator: ",") + "}"
    }
}
