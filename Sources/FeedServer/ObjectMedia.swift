internal import Foundation
public import ObjectStore

/// `/media/...` from object storage instead of a directory: the same public paths (`videos/`, `images/`), each
/// turned into a key under the library's prefix, answered from memory or streamed from the store with its range,
/// entity tag and HEAD, or, with `redirectExpiry`, answered with a 302 to a presigned URL so the bytes never pass
/// through Reel. The bucket stays private either way.
public struct ObjectMedia: Sendable {
    public let client: S3Client
    /// `--media-redirect`: how long a presigned URL is valid; nil streams through this server.
    public var redirectExpiry: Duration?
    /// `--media-cache-mb`: objects held in memory and answered from there; nil streams every request from the store.
    public var cache: ObjectMediaCache?

    public static let defaultRedirectExpiry = Duration.seconds(15 * 60)
    /// Three attempts of at most a second's wait for a connection each, within about four seconds in all: a viewer
    /// waiting for a segment is better told 503 and when to come back.
    public static let retry = S3RetryPolicy(maxAttempts: 3, baseSeconds: 0.2, capSeconds: 1)
    public static let connectTimeout = Duration.seconds(1)
    /// How long a client is told to wait when the store does not answer.
    public static let retryAfterSeconds = 5

    public init(client: S3Client, redirectExpiry: Duration? = nil, cache: ObjectMediaCache? = nil) {
        self.client = client
        self.redirectExpiry = redirectExpiry
        self.cache = cache
    }

    /// The key for a raw (still percent-encoded) path after `/media/`, or nil unless it names a public file the way
    /// `MediaLibrary` accepts it (plain names, no `..`, a public folder first).
    static func key(forRawPath rawPath: Substring) -> ObjectKey? {
        MediaLibrary.publicRelativePath(rawPath).flatMap { try? ObjectKey($0) }
    }
}
