package import MediaStore
package import NIOPosix

/// `reel library copy`: the library's objects from one `MediaStore` into another, the same code whichever engines
/// they are (a directory into S3, S3 into a directory, or either into its own kind). Each object goes to the same
/// key with its media headers and, where the destination keeps metadata, its SHA-256; each is checked after it is
/// written; what is already there with the same size and hash is skipped (so a stopped copy is resumed by running it
/// again); and nothing that differs is ever replaced: the copy stops and names both sides.
package struct LibraryCopy: Sendable {
    /// What is copied: the published media and the originals and verdicts kept beside them. Uploads in progress,
    /// staging and lock files (the dot folders) are one host's own and stay.
    package static let folders = ["videos", "images", "originals", "rejected", "failed"]
    /// The user-metadata name of the object's SHA-256 (hex), the one publishing and intake write too.
    package static let hashName = MediaAttributes.contentHashName

    /// How far a copy is, reported after each object: objects and bytes done (copied or skipped) of all listed.
    package struct Progress: Sendable, Equatable {
        package let files: Int
        package let totalFiles: Int
        package let bytes: Int64
        package let totalBytes: Int64
    }

    /// What a copy did. Every object copied or skipped had its size and SHA-256 compared: a hash the source did not
    /// record is computed from its bytes, so there is no unverified case.
    package struct Summary: Sendable, Equatable {
        package var copied = 0
        package var skipped = 0
        package var bytes: Int64 = 0
    }

    let source: any MediaStore
    let destination: any MediaStore
    /// Where an object waits as a local file when its store offers none (S3): one at a time, removed once used.
    let scratch: String
    let threadPool: NIOThreadPool

    /// - Parameter scratch: a directory for objects on their way (made when needed); best on the destination's file
    ///   system when that is a directory, and never inside what is copied.
    package init(
        from source: any MediaStore, to destination: any MediaStore, scratch: String,
        threadPool: NIOThreadPool = .singleton
    ) {
        self.source = source
        self.destination = destination
        self.scratch = scratch
        self.threadPool = threadPool
    }

    /// Copies every object of `folders` from the source into the destination, in key order.
    /// - Throws: `LibraryCopyError` (`.differs` for a conflict, nothing replaced); `MediaStoreError` from either
    ///   store (`.notAnObject` for a symlink in a source directory); `FileSystemError` for the scratch space.
    package func run(progress: @Sendable (Progress) -> Void = { _ in }) async throws -> Summary {
        var objects: [MediaObjectInfo] = []
        for folder in Self.folders { objects += try await source.listStrictly(prefix: folder + "/") }
        let totalBytes = objects.reduce(0) { $0 + $1.size }
        var summary = Summary()
        var done: Int64 = 0
        do {
            for (index, object) in objects.enumerated() {
                let key = try MediaKey(object.key)
                if let existing = try await destination.head(key) {
                    try await checkSame(key, existing: existing)
                    summary.skipped += 1
                } else {
                    summary.bytes += try await copy(key)
                    summary.copied += 1
                }
                done += object.size
                progress(Progress(files: index + 1, totalFiles: objects.count, bytes: done, totalBytes: totalBytes))
            }
        } catch {
            await removeScratchIfEmpty()
            throw error
        }
        await removeScratchIfEmpty()
        return summary
    }

    /// Writes the source's `key` to the destination, create-only, and checks it there.
    /// - Returns: the bytes written.
    func copy(_ key: MediaKey) async throws -> Int64 {
        try await withLocalFile(of: key, in: source) { file in
            if let recorded = file.recorded, recorded != file.hash {
                throw LibraryCopyError(
                    .damaged,
                    "\(source.name)/\(key) reads with sha256 \(file.hash), not the \(recorded) recorded with it: "
                        + "not copied")
            }
            try await destination.put(
                key, file: file.path, attributes: Self.attributes(of: key.value, hash: file.hash), createOnly: true)
            try await checkWritten(key, size: file.size, hash: file.hash)
            return file.size
        }
    }

    /// Stops the copy unless the destination's `existing` object has the source's size and hash.
    func checkSame(_ key: MediaKey, existing: MediaObjectInfo) async throws {
        let ours = try await contentHash(of: key, in: source, info: nil)
        let theirs = try await contentHash(of: key, in: destination, info: existing)
        guard existing.size == ours.size, theirs.hash == ours.hash else {
            throw LibraryCopyError(
                .differs,
                "\(destination.name)/\(key) already exists and differs from \(source.name)/\(key) (size "
                    + "\(existing.size) vs \(ours.size), sha256 \(theirs.hash) vs \(ours.hash)): nothing was replaced")
        }
    }

    /// Reads back what was just written to `key`: the recorded size and hash where the destination keeps metadata,
    /// the bytes themselves where it does not. An object that does not match is removed again (this copy wrote it,
    /// create-only), so running the copy again retries it.
    func checkWritten(_ key: MediaKey, size: Int64, hash: String) async throws {
        let stored: (size: Int64?, hash: String?)
        if destination.keepsMetadata {
            let info = try await destination.head(key)
            stored = (info?.size, info?.metadata[Self.hashName])
        } else {
            let computed = try await withLocalFile(of: key, in: destination) {
                Fingerprint(size: $0.size, hash: $0.hash)
            }
            stored = (computed.size, computed.hash)
        }
        guard stored.size == size, stored.hash == hash else {
            try? await destination.delete(key)
            throw LibraryCopyError(
                .doesNotReadBack,
                "\(destination.name)/\(key) reads back with size \(stored.size.map(String.init) ?? "none") and sha256 "
                    + "\(stored.hash ?? "none"), not the \(size) and \(hash) of \(source.name)/\(key); it was removed again"
            )
        }
    }

    /// The size and SHA-256 of `key` in `store`: the hash recorded with it where the store keeps metadata and has
    /// one (from `info`, or a `head`), otherwise computed from its bytes.
    func contentHash(of key: MediaKey, in store: any MediaStore, info: MediaObjectInfo?) async throws -> Fingerprint {
        if store.keepsMetadata {
            let found = if let info { info } else { try await store.head(key) }
            guard let info = found else {
                throw MediaStoreError.notFound(key: "\(store.name)/\(key)")
            }
            if let recorded = info.metadata[Self.hashName] { return Fingerprint(size: info.size, hash: recorded) }
        }
        return try await withLocalFile(of: key, in: store) { Fingerprint(size: $0.size, hash: $0.hash) }
    }

    /// Attributes as the library serves them: public media by its name, everything else (originals, verdicts)
    /// private octet-stream; with the hash.
    static func attributes(of key: String, hash: String) -> MediaAttributes {
        isPublic(key)
            ? .media(named: key, metadata: [hashName: hash]) : .private(metadata: [hashName: hash])
    }

    /// Public media by its name; everything else (originals, verdicts) octet-stream.
    package static func contentType(of key: String) -> String { attributes(of: key, hash: "").contentType }

    package static func cacheControl(of key: String) -> String { attributes(of: key, hash: "").cacheControl }

    static func isPublic(_ key: String) -> Bool { key.hasPrefix("videos/") || key.hasPrefix("images/") }
}
