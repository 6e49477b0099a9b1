package import NIOCore

/// The library's objects, whatever keeps them: the one seam between Reel and its media library (issue 63). Serving,
/// uploads, publishing, sweeping and copying are written once against it; `DirectoryMediaStore` (a local or shared
/// directory) and `S3MediaStore` (a bucket and prefix) implement it, and one conformance suite runs on both.
///
/// Keys are library-relative (`videos/<id>/master.m3u8`), checked once by `MediaKey`. Every engine answers with the
/// same `MediaStoreError` cases, so callers decide by case, never by engine.
package protocol MediaStore: Sendable {
    /// The library for messages: a directory path or `s3://bucket/prefix`. Never carries a credential.
    var name: String { get }

    /// Whether `presignedURL(for:expires:)` can answer: a URL that lets anyone GET an object for a while.
    var canPresign: Bool { get }

    /// Whether user `metadata` given to `put` comes back from `head` (S3 keeps it; a directory does not).
    var keepsMetadata: Bool { get }

    /// Stores `bytes` at `key`, durably: once this returns, the object survives a crash of this host.
    /// - Parameter createOnly: an existing object is never replaced.
    /// - Throws: `MediaStoreError.alreadyExists` when `createOnly` found the key taken; `.unavailable`, `.failed`.
    @discardableResult
    func put(
        _ key: MediaKey, bytes: ByteBuffer, attributes: MediaAttributes, createOnly: Bool
    ) async throws
        -> MediaObjectInfo

    /// Stores a copy of the local file at `path` at `key` (in parts, for S3, when it is large).
    /// - Throws: `MediaStoreError.alreadyExists` when `createOnly` found the key taken; `.notFound` when `path` is
    ///   missing; `.unavailable`, `.failed`.
    @discardableResult
    func put(
        _ key: MediaKey, file path: String, attributes: MediaAttributes, createOnly: Bool
    ) async throws
        -> MediaObjectInfo

    /// The object's bytes, or the part `range` asks for; `.notModified` when `ifNoneMatch` matches its tag.
    /// - Throws: `MediaStoreError.notFound`, `.rangeNotSatisfiable` (with the object's size), `.unavailable`.
    func get(_ key: MediaKey, range: MediaByteRange?, ifNoneMatch: String?) async throws -> MediaRead

    /// The object's size, tag and attributes, or nil when there is none.
    /// - Throws: `MediaStoreError.unavailable`, `.failed`.
    func head(_ key: MediaKey) async throws -> MediaObjectInfo?

    /// Every object whose key starts with `prefix` (plain text, not a path: `videos/ab` finds `videos/abc/x`), in key
    /// order. Hidden names and work in progress (staging, temporary files) are never listed.
    /// - Throws: `MediaStoreError.badKey` for a prefix with control characters or a leading `/`; `.unavailable`.
    func list(prefix: String) async throws -> [MediaObjectInfo]

    /// `list(prefix:)` for a copy of the whole library (`reel library copy`): the same objects, but an entry that
    /// `list` passes over because no object can stand for it (a symlink, a FIFO, a name that is not UTF-8: a
    /// directory can hold them, a bucket cannot) stops the listing, named, so that a copy never silently leaves part
    /// of a library behind. Hidden names and work in progress are still left out, as `list` leaves them.
    /// - Throws: `MediaStoreError.notAnObject` for the first such entry; what `list(prefix:)` throws.
    func listStrictly(prefix: String) async throws -> [MediaObjectInfo]

    /// Removes the object; one that is already gone is not an error.
    /// - Throws: `MediaStoreError.unavailable`, `.failed`.
    func delete(_ key: MediaKey) async throws

    /// A URL that lets whoever holds it GET `key` until it expires.
    /// - Throws: `MediaStoreError.unsupported` where `canPresign` is false; `.failed` for an expiry outside what the
    ///   engine accepts.
    func presignedURL(for key: MediaKey, expires: Duration) throws -> String

    /// Makes the local staged output at `staged` (a file, or a directory tree) the library's `key` (the object, or
    /// everything under `key/`), all at once as readers see it: a directory renames the synced tree into place; S3
    /// writes each file create-only (readers find it through the catalog row committed after this). `afterEach`
    /// runs after each object is stored (a lease's renewal); a failure there stops the publish.
    /// - Returns: how many objects were published.
    /// - Throws: `MediaStoreError.alreadyExists` when `key` holds other bytes; `.notFound` when `staged` is
    ///   missing; `.unavailable`, `.failed`.
    @discardableResult
    func publish(
        staged: String, to key: MediaKey, afterEach: @escaping @Sendable (Int) async throws -> Void
    )
        async throws -> Int
}

extension MediaStore {
    /// The whole object, refused past `limit` bytes (playlists, outcomes, reason files).
    /// - Throws: `MediaStoreError.notFound`, `.tooLarge`, `.unavailable`.
    package func contents(of key: MediaKey, limit: Int = 16 << 20) async throws -> ByteBuffer {
        let read = try await get(key, range: nil, ifNoneMatch: nil)
        return try await read.body.collect(upTo: limit, key: key.value)
    }

    /// `publish(staged:to:afterEach:)` with nothing to do between objects.
    @discardableResult
    package func publish(staged: String, to key: MediaKey) async throws -> Int {
        try await publish(staged: staged, to: key, afterEach: { _ in })
    }
}
