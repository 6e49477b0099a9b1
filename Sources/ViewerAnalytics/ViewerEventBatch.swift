package import MediaModel

/// A batch as `POST /v1/events` takes it: a JSON array of at most 100 events in at most 64 KB, every field checked,
/// so the answer to a bad batch names the first bad event and field and nothing of it is stored. Every event of a
/// batch is of one session, which the caller gives (the server: the session of the batch's token).
package enum ViewerEventBatch {
    package static let maximumEvents = 100
    package static let maximumBytes = 64 * 1024
    static let maximumIdentifier = 64
    static let maximumRendition = 32
    static let maximumMessage = 500
    /// Ten minutes: longer than any startup or stall the client can honestly report on a 60 s video.
    static let maximumMilliseconds = 600_000.0
    /// An hour: a looping 60 s video watched for an hour is still one view.
    static let maximumSeconds = 3600.0
    static let maximumBytesPerEvent = 10_000_000_000.0

    /// The events of `body`, each of `session`.
    /// - Throws: `ViewerEventError` for the first thing wrong.
    package static func parse(_ body: [UInt8], session: String) throws(ViewerEventError) -> [ViewerEvent] {
        guard body.count <= maximumBytes else { throw .tooLarge(bytes: body.count, limit: maximumBytes) }
        // A list of flat objects, as every batch a player sends is, is read without a dictionary per event; any other
        // document is parsed whole, so a bad one is named exactly as before.
        let objects: [[JSONMember]?]
        if let flat = JSONValue.flatObjects(parsing: body) {
            objects = flat
        } else {
            let document: JSONValue
            do { document = try JSONValue(parsing: body) } catch { throw .notJSON(error) }
            guard case let .array(items) = document else { throw .notAnArray }
            objects = items.map { item in
                guard case let .object(fields) = item else { return nil }
                return fields.map { JSONMember(key: $0.key, value: $0.value) }
            }
        }
        guard objects.count <= maximumEvents else { throw .tooManyEvents(count: objects.count, limit: maximumEvents) }
        var events: [ViewerEvent] = []
        events.reserveCapacity(objects.count)
        for (index, members) in objects.enumerated() {
            guard let members else { throw .badEvent(index: index, field: "the event", problem: .notAnObject) }
            do throws(ViewerEventFields.Failure) {
                var fields = ViewerEventFields(members: members)
                events.append(try fields.event(session: session))
            } catch {
                throw .badEvent(index: index, field: error.field, problem: error.problem)
            }
        }
        return events
    }
}
