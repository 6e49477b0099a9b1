internal import MediaModel
internal import NIOCore
internal import Synchronization

/// Whole media objects from the store, held in this server's memory (`--media-cache-mb`): the feed's hot set (the
/// first segments, init segments, posters and playlists every viewer asks for) is then answered, with its ranges and
/// validators, without a second HTTP exchange per request. Bounded in bytes (see `MediaCacheSegments`).
///
/// How long an object is trusted before it is revalidated with its entity tag: a playlist for its own `max-age`, as
/// a client would; an immutable file for five minutes, so a file removed from the store stops being served here
/// within that (a CDN in front keeps it for its year either way).
public final class ObjectMediaCache: Sendable {
    struct Entry: Sendable {
        let body: ByteBuffer
        let etag: String
        let lastModified: String
    }

    /// The bytes held at most, a bound on the sum of the bodies.
    public let capacityBytes: Int
    /// A larger object is streamed through and not held.
    public let maxObjectBytes: Int
    static let playlistLifetime = Duration.seconds(10)
    static let immutableLifetime = Duration.seconds(300)
    private let state: Mutex<MediaCacheSegments<Entry, ContinuousClock.Instant>>

    /// - Parameter capacityBytes: at least 2; half of it is one segment, and no object over 16 MiB is held.
    public init(capacityBytes: Int) {
        precondition(capacityBytes >= 2)
        self.capacityBytes = capacityBytes
        let segment = capacityBytes / 2
        self.maxObjectBytes = min(segment, 16 << 20)
        self.state = Mutex(MediaCacheSegments(segmentBytes: segment))
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
        MediaPolicy.contentType(forName: name[...]) == MediaPolicy.playlistType ? playlistLifetime : immutableLifetime
    }
}
