package import ViewerAnalytics

/// One event as the `viewer_events` table's columns hold it, the same on every engine: the type's name and, of the
/// rest, only what that type carries (`ms` is a view start's startup, a stall's length or a segment's fetch time).
package struct ViewerEventColumns: Sendable, Equatable {
    package var type: String
    package var rendition: String?
    package var milliseconds: Int?
    package var positionSeconds: Double?
    package var watchedSeconds: Double?
    package var completed: Bool?
    package var bytes: Int?
    package var message: String?

    package init(
        type: String, rendition: String? = nil, milliseconds: Int? = nil, positionSeconds: Double? = nil,
        watchedSeconds: Double? = nil, completed: Bool? = nil, bytes: Int? = nil, message: String? = nil
    ) {
        self.type = type
        self.rendition = rendition
        self.milliseconds = milliseconds
        self.positionSeconds = positionSeconds
        self.watchedSeconds = watchedSeconds
        self.completed = completed
        self.bytes = bytes
        self.message = message
    }

    package init(_ kind: ViewerEvent.Kind) {
        switch kind {
        case let .viewStart(rendition, startup):
            self.init(type: "view_start", rendition: rendition, milliseconds: startup)
        case let .stall(milliseconds):
            self.init(type: "stall", milliseconds: milliseconds)
        case let .progress(position, watched):
            self.init(type: "progress", positionSeconds: position, watchedSeconds: watched)
        case let .viewEnd(watched, completed, bytes):
            self.init(type: "view_end", watchedSeconds: watched, completed: completed, bytes: bytes)
        case let .segment(bytes, milliseconds):
            self.init(type: "segment", milliseconds: milliseconds, bytes: bytes)
        case let .error(message):
            self.init(type: "error", message: message)
        }
    }

    /// The event kind back from a row.
    /// - Throws: `CatalogError` `.other` naming the type and the column when the row is not one this code wrote.
    package func kind() throws(CatalogError) -> ViewerEvent.Kind {
        func need<T>(_ value: T?, _ column: String) throws(CatalogError) -> T {
            guard let value else {
                throw CatalogError(.other, "a stored \(type) viewer event has no \(column)")
            }
            return value
        }
        switch type {
        case "view_start":
            return .viewStart(
                rendition: try need(rendition, "rendition"), startupMilliseconds: try need(milliseconds, "ms"))
        case "stall":
            return .stall(milliseconds: try need(milliseconds, "ms"))
        case "progress":
            return .progress(
                positionSeconds: try need(positionSeconds, "position_s"),
                watchedSeconds: try need(watchedSeconds, "watched_s"))
        case "view_end":
            return .viewEnd(
                watchedSeconds: try need(watchedSeconds, "watched_s"), completed: try need(completed, "completed"),
                bytes: try need(bytes, "bytes"))
        case "segment":
            return .segment(bytes: try need(bytes, "bytes"), milliseconds: try need(milliseconds, "ms"))
        case "error":
            return .error(message: try need(message, "message"))
        default:
            throw CatalogError(.other, "a stored viewer event has the unknown type '\(type.prefix(40))'")
        }
    }
}
