package import MediaModel

/// Why a batch of viewer events was refused; the description names the first bad event and field.
package enum ViewerEventError: Error, Sendable, Equatable, CustomStringConvertible {
    case tooLarge(bytes: Int, limit: Int)
    case tooManyEvents(count: Int, limit: Int)
    case notJSON(JSONSyntaxError)
    case notAnArray
    case badEvent(index: Int, field: String, problem: Problem)

    package enum Problem: Sendable, Equatable {
        case notAnObject
        case missing
        case unknownField
        case unknownType(String)
        case wrongType(expected: String)
        case outOfRange(ClosedRange<Double>)
        case tooLong(limit: Int)
        case badCharacters
        /// A field the server fills in itself (the session, from the batch's token).
        case setByServer
    }

    package var description: String {
        switch self {
        case let .tooLarge(bytes, limit): "the batch is \(bytes) bytes; the limit is \(limit)"
        case let .tooManyEvents(count, limit): "the batch has \(count) events; the limit is \(limit)"
        case let .notJSON(error): "the body is not JSON: \(error)"
        case .notAnArray: "the body must be a JSON array of events"
        case let .badEvent(index, field, problem): "event \(index): \(field) \(problem.text)"
        }
    }
}

extension ViewerEventError.Problem {
    var text: String {
        switch self {
        case .notAnObject: "must be a JSON object"
        case .missing: "is missing"
        case .unknownField: "is not a field of this event type"
        case let .unknownType(type):
            "\"\(type.prefix(40))\" is not an event type (view_start, stall, progress, view_end, segment, error)"
        case let .wrongType(expected): "must be \(expected)"
        case let .outOfRange(range): "must be from \(Self.number(range.lowerBound)) to \(Self.number(range.upperBound))"
        case let .tooLong(limit): "is longer than \(limit) characters"
        case .badCharacters: "may hold only letters, digits, '-' and '_'"
        case .setByServer: "is not taken from an event: a batch's session is the one its Reel-Session token names"
        }
    }

    private static func number(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : String(value)
    }
}
