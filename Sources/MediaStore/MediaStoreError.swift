/// A media-store operation that failed, the same cases from every engine, so callers decide by case. Messages name
/// the operation and the key, never a credential.
package enum MediaStoreError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A key (or listing prefix) that could lead outside the library.
    case badKey(String, problem: String)
    /// No such object (or, for `put(file:)` and `publish`, no such local file).
    case notFound(key: String)
    /// A create-only write, or a publish, found the key already taken by other bytes.
    case alreadyExists(key: String)
    /// The range asked for covers no byte of the object (HTTP 416); `size` is the object's.
    case rangeNotSatisfiable(key: String, size: Int64)
    /// A body larger than the caller would read whole.
    case tooLarge(key: String, limit: Int)
    /// The operation has no meaning for this engine (presigning a directory's file).
    case unsupported(operation: String, store: String)
    /// The store did not answer, or failed for a while (an I/O error, a read-only remount): worth another try later.
    case unavailable(String)
    /// The disk or its quota is full: worth another try once space is freed (HTTP 507 rather than 503).
    case full(String)
    /// Refused for good (credentials, permissions, a malformed answer); the message says what happened.
    case failed(String)
    /// `listStrictly` met an entry no object can stand for (a directory holds such things, a bucket cannot): `key`
    /// as near as a key can spell it, and what the entry is.
    case notAnObject(key: String, entry: Entry)

    /// What a library entry is when it cannot be an object.
    package enum Entry: Sendable, Equatable {
        case symlink
        /// A FIFO, a socket, a device: the file system's word for it.
        case special(String)
        /// A name that is not UTF-8, so no key can spell it (`key` shows it with replacement characters).
        case nameNotUTF8
    }

    /// Worth another try later.
    package var isRetryable: Bool {
        switch self {
        case .unavailable, .full: true
        default: false
        }
    }

    package var description: String {
        switch self {
        case .badKey(let key, let problem): "key \(key) refused: \(problem)"
        case .notFound(let key): "\(key): no such object"
        case .alreadyExists(let key): "\(key) already exists: nothing was replaced"
        case .rangeNotSatisfiable(let key, let size): "\(key): the range is outside its \(size) bytes"
        case .tooLarge(let key, let limit): "\(key) is over the \(limit) bytes it may be read whole"
        case .unsupported(let operation, let store): "\(store) cannot \(operation)"
        case .unavailable(let message): message
        case .full(let message): message
        case .failed(let message): message
        case .notAnObject(let key, .symlink): "\(key) is a symlink, not a regular file: it cannot be an object"
        case .notAnObject(let key, .special(let kind)):
            "\(key) is a \(kind), not a regular file: it cannot be an object"
        case .notAnObject(let key, .nameNotUTF8): "\(key): a name that is not UTF-8 cannot be an object's key"
        }
    }
}
