internal import MediaModel
package import MediaStore
package import NIOCore
internal import Synchronization

/// Whole media objects of another store, held in this server's memory (`--media-cache-mb`, for a library in object
/// storage): the feed's hot set (the first segments, init segments, posters and playlists every viewer asks for) is
/// then answered, with its ranges and validators, without a second HTTP exchange per request. Bounded in bytes (see
/// `MediaCacheSegments`). A `MediaStore` itself, so `/media/` is written once for every library.
///
/// How long an object is trusted before it is revalidated with its entity tag: a playlist for its own `max-age`, as
/// a client would; an immutable file for five minutes, so a file removed from the store stops being served here
/// within that (a CDN in front keeps it for its year either way). While the store does not answer, what is held is
/// served.
package final class CachedMediaStore: MediaStore {
    struct Entry: Sendable {
        let body: ByteBuffer
        let info: MediaObjectInfo
    }

    package let base: any MediaStore
    /// The bytes held at most, a bound on the sum of the bodies.
    package let capacityBytes: Int
    /// A larger object is streamed through and not held.
    package let maxObjectBytes: Int
    static let playlistLifetime = Duration.seconds(10)
    /// A provisional rendition's playlist grows while it is made (issue 64): as its `max-age`.
    static let playablePlaylistLifetime = Duration.seconds(1)
    static let immutableLifetime = Duration.seconds(300)
    private let state: Mutex<MediaCacheSegments<Entry, ContinuousClock.Instant>>

    /// - Parameter capacityBytes: at least 2; half of it is one segment, and no object over 16 MiB is held.
    package init(_ base: any MediaStore, capacityBytes: Int) {
        precondition(capacityBytes >= 2)
        self.base = base
        self.capacityBytes = capacityBytes
        let segment = capacityBytes / 2
        self.maxObjectBytes = min(segment, 16 << 20)
        self.state = Mutex(MediaCacheSegments(segmentBytes: segment))
    }

    package var name: String { base.name }
    package var canPresign: Bool { base.canPresign }
    package var keepsMetadata: Bool { base.keepsMetadata }

    /// From memory when held and fresh; the store is asked for the whole object otherwise, so one fill serves every
    /// range and validator after it (revalidated with the held tag once stale).
    package func get(_ key: MediaKey, range: MediaByteRange?, ifNoneMatch: String?) async throws -> MediaRead {
        var held: Entry?
        switch find(key.value) {
        case .fresh(let entry): return try Self.answer(key, from: entry, range: range, ifNoneMatch: ifNoneMatch)
        case .stale(let entry): held = entry
        case .miss: break
        }
        let read: MediaRead
        do {
            read = try await base.get(key, range: nil, ifNoneMatch: held?.info.etag)
        } catch let error as MediaStoreError {
            if case .notFound = error { remove(key.value) }
            // A store that does not answer cannot say the file changed: what is held is served meanwhile.
            guard error.isRetryable, let held else { throw error }
            return try Self.answer(key, from: held, range: range, ifNoneMatch: ifNoneMatch)
        }
        if read.status == .notModified, let held {
            insert(key.value, held)
            return try Self.answer(key, from: held, range: range, ifNoneMatch: ifNoneMatch)
        }
        if read.status == .whole, read.info.size <= Int64(maxObjectBytes) {
            let body = try await read.body.collect(upTo: maxObjectBytes, key: key.value)
            let entry = Entry(body: body, info: read.info)
            insert(key.value, entry)
            return try Self.answer(key, from: entry, range: range, ifNoneMatch: ifNoneMatch)
        }
        remove(key.value)
        // Too large to hold: wanted whole, this answer is the one; otherwise the store answers the request itself.
        if read.status == .whole, range == nil, ifNoneMatch == nil { return read }
        return try await base.get(key, range: range, ifNoneMatch: ifNoneMatch)
    }

    /// A held object's facts without asking the store; others are the store's (nothing is fetched for a HEAD).
    package func head(_ key: MediaKey) async throws -> MediaObjectInfo? {
        if case .fresh(let entry) = find(key.value) { return entry.info }
        return try await base.head(key)
    }

    package func put(
        _ key: MediaKey, bytes: ByteBuffer, attributes: MediaAttributes, createOnly: Bool
    ) async throws
        -> MediaObjectInfo
    {
        remove(key.value)
        return try await base.put(key, bytes: bytes, attributes: attributes, createOnly: createOnly)
    }

    package func put(
        _ key: MediaKey, file path: String, attributes: MediaAttributes, createOnly: Bool
    )
        async throws -> MediaObjectInfo
    {
        remove(key.value)
        return try await base.put(key, file: path, attributes: attributes, createOnly: createOnly)
    }

    package func list(prefix: String) async throws -> [MediaObjectInfo] { try await base.list(prefix: prefix) }

    package func listStrictly(prefix: String) async throws -> [MediaObjectInfo] {
        try await base.listStrictly(prefix: prefix)
    }

    package func delete(_ key: MediaKey) async throws {
        remove(key.value)
        try await base.delete(key)
    }

    package func presignedURL(for key: MediaKey, expires: Duration) throws -> String {
        try base.presignedURL(for: key, expires: expires)
    }

    package func publish(
        staged: String, to key: MediaKey, afterEach: @escaping @Sendable (Int) async throws -> Void
    ) async throws -> Int {
        try await base.publish(staged: staged, to: key, afterEach: afterEach)
    }

    /// A held object's answer: not modified for a matching tag, else the whole body or the one range asked for.
    static func answer(
        _ key: MediaKey, from entry: Entry, range: MediaByteRange?, ifNoneMatch: String?
    ) throws -> MediaRead {
        let size = Int64(entry.body.readableBytes)
        if let ifNoneMatch, EntityTag.matches(ifNoneMatch, entry.info.etag) {
            return MediaRead(status: .notModified, info: entry.info, body: .empty)
        }
        guard let range else { return MediaRead(status: .whole, info: entry.info, body: MediaBody(buffer: entry.body)) }
        guard let bytes = range.resolved(size: size) else {
            throw MediaStoreError.rangeNotSatisfiable(key: key.value, size: size)
        }
        let count = Int(bytes.upperBound - bytes.lowerBound + 1)
        let slice = entry.body.getSlice(at: entry.body.readerIndex + Int(bytes.lowerBound), length: count)
        return MediaRead(status: .partial(bytes), info: entry.info, body: MediaBody(buffer: slice ?? ByteBuffer()))
    }

    func find(_ key: String) -> MediaCacheSegments<Entry, ContinuousClock.Instant>.Found {
        let now = ContinuousClock.now
        return state.withLock { $0.find(key, at: now) }
    }

    /// Holds `entry` (fetched or revalidated just now) for its name's lifetime.
    func insert(_ key: String, _ entry: Entry) {
        let expires = ContinuousClock.now + Self.lifetime(forName: key)
        state.withLock { $0.insert(key, entry, bytes: entry.body.readableBytes, expires: expires) }
    }

    func remove(_ key: String) {
        state.withLock { $0.remove(key) }
    }

    static func lifetime(forName name: String) -> Duration {
        guard MediaPolicy.contentType(forName: name[...]) == MediaPolicy.playlistType else { return immutableLifetime }
        return LibraryLayout.isPlayable(name) ? playablePlaylistLifetime : playlistLifetime
    }
}
