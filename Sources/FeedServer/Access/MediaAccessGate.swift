internal import Catalog
internal import Synchronization

/// Decides, before any file or object is read, whether a `/media/` request may have a post's file (issue 65): a
/// public or unlisted post's files are anyone's; a private post's only through a URL signed for its current access
/// epoch (`PlaybackSigner`). Each post's access is read from the catalog once per catalog generation, which moves in
/// every transaction that changes a visibility (announced to every server on PostgreSQL), so a revocation holds at
/// the next request.
final class MediaAccessGate: Sendable {
    let access: any PostAccess
    let signer: PlaybackSigner
    /// The feed's generation, read without a round trip where the engine can (SQLite's reader, PostgreSQL's NOTIFY).
    let generation: @Sendable () async -> Int64?
    /// Entries past this many are dropped all at once: a cache miss costs one primary-key read.
    let capacity: Int
    private let state = Mutex(State())

    private struct State {
        var generation: Int64?
        var entries: [String: VideoAccess?] = [:]
        /// Tokens whose MAC was found valid, with the post and epoch it was valid for: a player asks for every
        /// segment with one token, and its MAC is computed once. Emptied with `entries`.
        var verified: [String: Verified] = [:]
    }

    private struct Verified {
        let id: String
        let epoch: Int64
        let expires: Int64
    }

    init(
        access: any PostAccess, signer: PlaybackSigner, capacity: Int = 100_000,
        generation: @escaping @Sendable () async -> Int64?
    ) {
        self.access = access
        self.signer = signer
        self.capacity = capacity
        self.generation = generation
    }

    /// What a request may do.
    enum Decision: Equatable {
        /// Anyone's file (an image, a public or unlisted post's, or files no post names).
        case open
        /// A private post's file, through a URL good until `expires` (Unix seconds).
        case signed(expires: Int64)
        case refused(APIErrorCode, String)
    }

    enum APIErrorCode: String { case forbidden, signatureExpired = "signature_expired" }

    /// The decision for the library key `key` (`videos/<folder>/...`), with the token a signed path carried.
    func decide(key: String, token: Substring?, now: Int64) async throws(CatalogError) -> Decision {
        guard let id = Self.videoID(ofKey: key) else {
            return token == nil ? .open : .refused(.forbidden, "a signed URL names a post's file, not \(key)")
        }
        let current = try await lookup(id)
        guard let token else {
            // Public, unlisted, or files no post names (a job's not yet published): anyone's, as before.
            guard current?.visibility == .private else { return .open }
            return .refused(.forbidden, "video \(id) is private: its files play only through a signed URL")
        }
        // A signed URL is checked whatever the post's visibility: a wrong one is refused, never read past.
        guard let current else { return .refused(.forbidden, "the signed URL names no post: \(id)") }
        let key = String(token)
        let known = state.withLock { state in state.verified[key] }
        if let known, known.id == id, known.epoch == current.epoch {
            return known.expires > now
                ? .signed(expires: known.expires)
                : .refused(.signatureExpired, "the signed URL for video \(id) expired at \(known.expires)")
        }
        let verdict = signer.verify(token, id: id, epoch: current.epoch, now: now)
        if case let .valid(expires) = verdict {
            state.withLock { state in
                if state.verified.count >= capacity { state.verified.removeAll(keepingCapacity: true) }
                state.verified[key] = Verified(id: id, epoch: current.epoch, expires: expires)
            }
        }
        switch verdict {
        case let .valid(expires): return .signed(expires: expires)
        case let .expired(at): return .refused(.signatureExpired, "the signed URL for video \(id) expired at \(at)")
        case .invalid: return .refused(.forbidden, "the signed URL is not valid for video \(id), or was revoked")
        }
    }

    /// Post `id`'s access, from the cache while the catalog's generation is the one it was read at.
    func lookup(_ id: String) async throws(CatalogError) -> VideoAccess? {
        let generation = await generation()
        let cached: VideoAccess?? = state.withLock { state in
            if generation == nil || state.generation != generation {
                state.entries.removeAll(keepingCapacity: true)
                state.verified.removeAll(keepingCapacity: true)
                state.generation = generation
                return nil
            }
            return state.entries[id]
        }
        if let cached { return cached }
        let read = try await access.videoAccess(id: id)
        state.withLock { state in
            guard state.generation == generation, generation != nil else { return }
            if state.entries.count >= capacity { state.entries.removeAll(keepingCapacity: true) }
            state.entries[id] = .some(read)
        }
        return read
    }

    /// The post a `videos/` key belongs to: its folder's name up to the first `.` (`<id>.e<N>`, `<id>.e<N>.playable`,
    /// or `<id>` before claim-keyed outputs); nil for any other key.
    static func videoID(ofKey key: String) -> String? {
        let parts = key.split(separator: "/", maxSplits: 2, omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0] == "videos", let id = parts[1].split(separator: ".").first, !id.isEmpty
        else { return nil }
        return String(id)
    }
}
