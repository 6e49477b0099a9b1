internal import MediaModel

/// One event's JSON object, read field by field; every field it has must be one its type takes.
struct ViewerEventFields {
    struct Failure: Error {
        let field: String
        let problem: ViewerEventError.Problem
    }

    /// The object's members; an event has a handful, so a search beats hashing.
    private let fields: [JSONMember]
    /// The names read so far; each is read once, so more fields than names read means one the type does not take.
    private var read: [String] = []

    /// An object's members, each key once.
    init(members: [JSONMember]) {
        fields = members
        read.reserveCapacity(8)
    }

    /// The event, as one of `session`'s: the session is the server's to say (the batch's token), never the event's.
    mutating func event(session: String) throws(Failure) -> ViewerEvent {
        let type = try string("type", limit: 20)
        if member("session") != nil { throw Failure(field: "session", problem: .setByServer) }
        let kind: ViewerEvent.Kind
        var video: String?
        switch type {
        case "view_start":
            video = try identifier("video")
            kind = .viewStart(
                rendition: try identifier("rendition", limit: ViewerEventBatch.maximumRendition),
                startupMilliseconds: try integer("startup_ms", 0...ViewerEventBatch.maximumMilliseconds))
        case "stall":
            video = try identifier("video")
            kind = .stall(milliseconds: try integer("duration_ms", 0...ViewerEventBatch.maximumMilliseconds))
        case "progress":
            video = try identifier("video")
            kind = .progress(
                positionSeconds: try number("position_s", 0...ViewerEventBatch.maximumSeconds),
                watchedSeconds: try number("watched_s", 0...ViewerEventBatch.maximumSeconds))
        case "view_end":
            video = try identifier("video")
            kind = .viewEnd(
                watchedSeconds: try number("watched_s", 0...ViewerEventBatch.maximumSeconds),
                completed: try boolean("completed"),
                bytes: try integer("bytes", 0...ViewerEventBatch.maximumBytesPerEvent))
        case "segment":
            video = try identifier("video")
            kind = .segment(
                bytes: try integer("bytes", 1...ViewerEventBatch.maximumBytesPerEvent),
                milliseconds: try integer("ms", 1...ViewerEventBatch.maximumMilliseconds))
        case "error":
            video = member("video") == nil ? nil : try identifier("video")
            kind = .error(message: try string("message", limit: ViewerEventBatch.maximumMessage))
        default:
            throw Failure(field: "type", problem: .unknownType(type))
        }
        if fields.count > read.count, let extra = fields.map(\.key).sorted().first(where: { !read.contains($0) }) {
            throw Failure(field: extra, problem: .unknownField)
        }
        return ViewerEvent(session: session, video: video, kind: kind)
    }

    private mutating func value(_ name: String) throws(Failure) -> JSONValue {
        read.append(name)
        guard let value = member(name), value != .null else { throw Failure(field: name, problem: .missing) }
        return value
    }

    private func member(_ name: String) -> JSONValue? {
        fields.first { $0.key == name }?.value
    }

    private mutating func string(_ name: String, limit: Int) throws(Failure) -> String {
        guard case let .string(text) = try value(name) else {
            throw Failure(field: name, problem: .wrongType(expected: "a string"))
        }
        // Characters never outnumber UTF-8 bytes: count them (slow) only when the bytes are over the limit.
        guard text.utf8.count <= limit || text.count <= limit else {
            throw Failure(field: name, problem: .tooLong(limit: limit))
        }
        return text
    }

    /// Ids, session ids and rendition names: 1 to `limit` ASCII letters, digits, '-' and '_'.
    private mutating func identifier(
        _ name: String, limit: Int = ViewerEventBatch.maximumIdentifier
    ) throws(Failure)
        -> String
    {
        let text = try string(name, limit: limit)
        guard !text.isEmpty else { throw Failure(field: name, problem: .missing) }
        guard text.utf8.allSatisfy({ $0.isIdentifierByte }) else {
            throw Failure(field: name, problem: .badCharacters)
        }
        return text
    }

    private mutating func integer(_ name: String, _ range: ClosedRange<Double>) throws(Failure) -> Int {
        guard case let .integer(number) = try value(name) else {
            throw Failure(field: name, problem: .wrongType(expected: "a whole number"))
        }
        guard range.contains(Double(number)) else { throw Failure(field: name, problem: .outOfRange(range)) }
        return Int(number)
    }

    private mutating func number(_ name: String, _ range: ClosedRange<Double>) throws(Failure) -> Double {
        let number: Double
        switch try value(name) {
        case let .integer(whole): number = Double(whole)
        case let .number(fraction): number = fraction
        default: throw Failure(field: name, problem: .wrongType(expected: "a number"))
        }
        guard range.contains(number) else { throw Failure(field: name, problem: .outOfRange(range)) }
        return number
    }

    private mutating func boolean(_ name: String) throws(Failure) -> Bool {
        guard case let .bool(flag) = try value(name) else {
            throw Failure(field: name, problem: .wrongType(expected: "true or false"))
        }
        return flag
    }
}

extension UInt8 {
    fileprivate var isIdentifierByte: Bool {
        (0x30...0x39).contains(self) || (0x41...0x5A).contains(self) || (0x61...0x7A).contains(self) || self == 0x2D
            || self == 0x5F
    }
}
