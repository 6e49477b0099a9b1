/// A catalog read or write that failed, classified once here from the engine's error codes so callers decide by case,
/// never by message: a duplicate content hash, a busy or locked database, a full disk, or anything else.
package struct CatalogError: Error, CustomStringConvertible, Sendable {
    package enum Kind: Sendable, Equatable {
        /// A unique constraint refused the row (the same bytes were published first).
        case duplicate
        /// Another connection held the lock past the busy timeout.
        case busy
        /// SQLite could not grow the file: the disk or quota is full.
        case full
        /// I/O error, read-only file system, or a database that cannot be opened or reached.
        case unavailable
        /// A job transition named a lease that is no longer the job's: taken over after it expired, or ended.
        case leaseLost
        case other
    }

    package let kind: Kind
    /// SQLite's message, with the statement when there was one.
    package let message: String

    package init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }

    /// Busy, full and unavailable may pass; a duplicate or a broken statement will not.
    package var isTransient: Bool { kind == .busy || kind == .full || kind == .unavailable }

    package var description: String { "catalog \(kind): \(message)" }
}
