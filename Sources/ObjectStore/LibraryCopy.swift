internal import FileSystem
internal import MediaModel
package import NIOPosix

/// `reel library copy`: a library directory's media into object storage, or back. Each file is one object at the
/// same relative key, carrying its SHA-256 as `x-amz-meta-sha256`; the copy checks each object's size and hash after
/// it is written, skips what is already there with the same size and hash (so a stopped copy is resumed by running it
/// again), and never replaces anything that differs: that is reported as a conflict, and the copy stops.
package struct LibraryCopy: Sendable {
    /// What is copied: the published media and the originals and verdicts kept beside them. Uploads in progress,
    /// staging and lock files (the dot folders) are one host's own and stay.
    package static let folders = ["videos", "images", "originals", "rejected", "failed"]
    /// The user-metadata name of the object's SHA-256 (hex).
    package static let hashName = "sha256"

    package struct Progress: Sendable, Equatable {
        package let files: Int
        package let totalFiles: Int
        package let bytes: Int64
        package let totalBytes: Int64
    }

    package struct Summary: Sendable, Equatable {
        package var copied = 0
        package var skipped = 0
        package var bytes: Int64 = 0
        /// Objects that came without a recorded hash (written by another tool): their size was checked, not their
        /// bytes.
        package var unverified = 0
    }

    let client: S3Client
    let threadPool: NIOThreadPool

    package init(client: S3Client, threadPool: NIOThreadPool = .singleton) {
        self.client = client
        self.threadPool = threadPool
    }

    /// Copies the library at `root` into the client's location.
    /// - Throws: `ObjectStoreError` (`.preconditionFailed` for a conflict), or the `FileSystemError` of a file.
    package func upload(from root: String, progress: @Sendable (Progress) -> Void = { _ in }) async throws -> Summary {
        let files = try await threadPool.runIfActive { try Self.localFiles(root: root, folders: Self.folders) }
        let totalBytes = files.reduce(0) { $0 + $1.size }
        var summary = Summary()
        var done: Int64 = 0
        for (index, file) in files.enumerated() {
            let key = try ObjectKey(file.path)
            let path = root + "/" + file.path
            let hash = try await threadPool.runIfActive { try ContentHash.sha256(ofFile: path) }
            if let existing = try await client.head(key) {
                guard existing.size == file.size, existing.metadata[Self.hashName] == hash else {
                    throw ObjectStoreError(
                        .preconditionFailed,
                        "\(client.name(key)) already exists and differs from \(path) (size \(existing.size) vs "
                            + "\(file.size), sha256 \(existing.metadata[Self.hashName] ?? "unrecorded") vs \(hash)): "
                            + "nothing was replaced")
                }
                summary.skipped += 1
            } else {
                let contentType = Self.contentType(of: file.path)
                try await client.upload(
                    file: path, to: key, contentType: contentType, cacheControl: Self.cacheControl(of: file.path),
                    metadata: [Self.hashName: hash], createOnly: true, threadPool: threadPool)
                guard let stored = try await client.head(key), stored.size == file.size,
                    stored.metadata[Self.hashName] == hash
                else {
                    throw ObjectStoreError(
                        .badResponse, "\(client.name(key)) does not read back with \(path)'s size and hash")
                }
                summary.copied += 1
                summary.bytes += file.size
            }
            done += file.size
            progress(Progress(files: index + 1, totalFiles: files.count, bytes: done, totalBytes: totalBytes))
        }
        return summary
    }

    /// Copies the client's location into the library directory at `root`. Each object is downloaded beside its
    /// final name, hashed, and renamed into place only when it matches.
    package func download(to root: String, progress: @Sendable (Progress) -> Void = { _ in }) async throws -> Summary {
        var objects: [ObjectInfo] = []
        for folder in Self.folders { objects += try await client.list(prefix: folder + "/") }
        let totalBytes = objects.reduce(0) { $0 + $1.size }
        var summary = Summary()
        var done: Int64 = 0
        for (index, object) in objects.enumerated() {
            let key = try ObjectKey(object.key)
            let path = root + "/" + object.key
            let recorded = try await client.head(key)?.metadata[Self.hashName]
            let local = try await threadPool.runIfActive { () -> String? in
                guard Directory.exists(path) else { return nil }
                return try ContentHash.sha256(ofFile: path)
            }
            if let local {
                guard let recorded, local == recorded else {
                    throw ObjectStoreError(
                        .preconditionFailed,
                        "\(path) already exists and \(recorded == nil ? "the object has no recorded hash to compare" : "differs from \(client.name(key))"): nothing was replaced"
                    )
                }
                summary.skipped += 1
            } else {
                let partial = path + ".copy-\(UInt32.random(in: 0...UInt32.max))"
                try await threadPool.runIfActive { try Directory.create(Directory.parent(of: path)) }
                do {
                    try await client.download(key, to: partial, threadPool: threadPool)
                    let hash = try await threadPool.runIfActive { try ContentHash.sha256(ofFile: partial) }
                    if let recorded, hash != recorded {
                        throw ObjectStoreError(
                            .badResponse,
                            "\(client.name(key)) arrived with sha256 \(hash), not the recorded \(recorded)")
                    }
                    try await threadPool.runIfActive {
                        try Directory.move(partial, to: path)
                        try Directory.sync(Directory.parent(of: path))
                    }
                } catch {
                    try? await threadPool.runIfActive { Directory.remove(partial) }
                    throw error
                }
                if recorded == nil { summary.unverified += 1 }
                summary.copied += 1
                summary.bytes += object.size
            }
            done += object.size
            progress(Progress(files: index + 1, totalFiles: objects.count, bytes: done, totalBytes: totalBytes))
        }
        return summary
    }

    /// Regular files under `folders` of `root`, as paths relative to `root`, in order. Dotfiles and partial
    /// downloads are left out; a symlink or a name that is not UTF-8 stops the walk, named.
    /// Blocks on the disk: callers run it on a thread pool.
    /// - Throws: `FileSystemError`, or `ObjectStoreError` `.badKey` for a name no object key can carry.
    package static func localFiles(root: String, folders: [String]) throws -> [(path: String, size: Int64)] {
        var found: [(path: String, size: Int64)] = []
        func walk(_ relative: String) throws {
            for entry in try Directory.entries(of: root + "/" + relative).sorted(by: {
                $0.name.lexicographicallyPrecedes($1.name)
            })
            where !entry.isIgnored {
                guard let name = String(validating: entry.name, as: UTF8.self) else {
                    throw ObjectStoreError(
                        .badKey, "\(root)/\(relative): a name that is not UTF-8 cannot be an object key")
                }
                switch entry.kind {
                case .regular: found.append((relative + "/" + name, entry.size))
                case .directory: try walk(relative + "/" + name)
                default:
                    throw ObjectStoreError(
                        .badKey, "\(root)/\(relative)/\(name) is a \(entry.kind.description), not a file: not copied")
                }
            }
        }
        for folder in folders where Directory.isDirectory(root + "/" + folder) { try walk(folder) }
        return found
    }

    /// Public media by its name; everything else (originals, verdicts) octet-stream.
    static func contentType(of path: String) -> String {
        isPublic(path) ? MediaPolicy.contentType(forName: path[...]) : "application/octet-stream"
    }

    static func cacheControl(of path: String) -> String {
        isPublic(path) ? MediaPolicy.cacheControl(forContentType: contentType(of: path)) : "private, no-store"
    }

    static func isPublic(_ path: String) -> Bool { path.hasPrefix("videos/") || path.hasPrefix("images/") }
}
