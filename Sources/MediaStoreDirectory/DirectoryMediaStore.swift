internal import FileSystem
internal import MediaModel
package import MediaStore
package import NIOCore
package import NIOPosix

/// The library in a directory (local, or a shared file system mounted at the same path on every host): each key a
/// file below `root`. Writes keep Reel's durability: a temporary name, fsync, rename, fsync of the directory; a
/// publish renames a synced staged tree into place, so readers see nothing or all of it. Every file-system call runs
/// on `threadPool`, never on the concurrency pool.
///
/// Reads resolve the key with `realpath` and refuse anything that lands outside `root` (a symlink planted in the
/// library) or is not a regular file. Bodies offer the file itself (`MediaBody.localFile`), so a server sends it
/// with its own file I/O. Attributes are not stored: a file's type and caching come from its name (`MediaPolicy`),
/// and its entity tag from its size, modification time and inode (published files never change in place).
package struct DirectoryMediaStore: MediaStore {
    /// The canonical root.
    package let root: String
    let canonicalRoot: CanonicalPath
    let threadPool: NIOThreadPool
    /// Chunk size of a streamed body.
    static let chunkBytes = 256 << 10

    /// Top folders between which a symlink may lead (the public `videos/` and `images/`); any other link must stay
    /// in its own top folder.
    package let linkableFolders: Set<String>

    /// `root` must exist; it is canonicalised once here.
    /// - Throws: `MediaStoreError.notFound` when it does not, `.failed` when it cannot be resolved.
    package init(
        root: String, linkableFolders: Set<String> = [], threadPool: NIOThreadPool = .singleton
    ) throws(MediaStoreError) {
        self.linkableFolders = linkableFolders
        do {
            canonicalRoot = try CanonicalPath(resolving: root)
        } catch {
            throw Self.storeError(error, key: root)
        }
        self.root = canonicalRoot.path
        self.threadPool = threadPool
    }

    package var name: String { root }
    package var canPresign: Bool { false }
    package var keepsMetadata: Bool { false }

    func path(of key: MediaKey) -> String { root + "/" + key.value }

    package func put(
        _ key: MediaKey, bytes: ByteBuffer, attributes: MediaAttributes, createOnly: Bool
    ) async throws
        -> MediaObjectInfo
    {
        let path = path(of: key)
        return try await run(key) { () throws(FileSystemError) in
            try Directory.create(Directory.parent(of: path))
            try AtomicFile.write(bytes.readableBytesView, to: path, replacing: !createOnly)
            return try info(key, status: FileStatus(path: path, followingSymlinks: false))
        }
    }

    package func put(
        _ key: MediaKey, file source: String, attributes: MediaAttributes, createOnly: Bool
    )
        async throws -> MediaObjectInfo
    {
        let path = path(of: key)
        return try await run(key, source: source) { () throws(FileSystemError) in
            try Directory.create(Directory.parent(of: path))
            try AtomicFile.copy(file: source, to: path, replacing: !createOnly)
            return try info(key, status: FileStatus(path: path, followingSymlinks: false))
        }
    }

    package func get(_ key: MediaKey, range: MediaByteRange?, ifNoneMatch: String?) async throws -> MediaRead {
        guard let found = try await threadPool.runIfActive({ [self] in resolve(key) }) else {
            throw MediaStoreError.notFound(key: key.value)
        }
        let (path, info) = found
        if let ifNoneMatch, EntityTag.matches(ifNoneMatch, info.etag) {
            return MediaRead(status: .notModified, info: info, body: .empty)
        }
        let status: MediaRead.Status
        let offset: Int64
        let count: Int64
        if let range {
            guard let bytes = range.resolved(size: info.size) else {
                throw MediaStoreError.rangeNotSatisfiable(key: key.value, size: info.size)
            }
            status = .partial(bytes)
            offset = bytes.lowerBound
            count = bytes.upperBound - bytes.lowerBound + 1
        } else {
            status = .whole
            offset = 0
            count = info.size
        }
        let body = MediaBody(
            stream: stream(path: path, key: key, offset: offset, count: count),
            localFile: MediaBody.LocalFileRange(path: path, offset: offset, count: count))
        return MediaRead(status: status, info: info, body: body)
    }

    package func head(_ key: MediaKey) async throws -> MediaObjectInfo? {
        try await threadPool.runIfActive { [self] in resolve(key)?.info }
    }

    package func list(prefix: String) async throws -> [MediaObjectInfo] {
        guard MediaKey.isListablePrefix(prefix) else {
            throw MediaStoreError.badKey(MediaKey.quoted(prefix), problem: "not a listing prefix")
        }
        return try await run(prefix) { try listing(prefix: prefix, strictly: false) }
    }

    /// `list(prefix:)`, but a symlink, a FIFO, a socket, a device or a name that is not UTF-8 under `prefix` stops
    /// it: the directory can hold them, and a copy must not pass over them unsaid.
    package func listStrictly(prefix: String) async throws -> [MediaObjectInfo] {
        guard MediaKey.isListablePrefix(prefix) else {
            throw MediaStoreError.badKey(MediaKey.quoted(prefix), problem: "not a listing prefix")
        }
        return try await run(prefix) { try listing(prefix: prefix, strictly: true) }
    }

    package func delete(_ key: MediaKey) async throws {
        let path = path(of: key)
        try await run(key) { () throws(FileSystemError) in
            guard let status = try? FileStatus(path: path, followingSymlinks: false), status.kind != .directory
            else { return }
            try Directory.removeFile(path)
            // Folders left empty go too, up to the root's own, so a later publish finds the name free.
            var parent = Directory.parent(of: path)
            while parent.count > root.count, parent.hasPrefix(root + "/"), Directory.removeIfEmpty(parent) {
                parent = Directory.parent(of: parent)
            }
            try Directory.sync(parent)
        }
    }

    package func presignedURL(for key: MediaKey, expires: Duration) throws -> String {
        throw MediaStoreError.unsupported(operation: "presign a URL", store: name)
    }

    /// Renames `staged` (on the same file system) onto the key's path after syncing it whole, then syncs the parent:
    /// `StagingDirectory.publish`. An empty directory at the key is replaced; anything else there is `.alreadyExists`.
    package func publish(
        staged: String, to key: MediaKey, afterEach: @escaping @Sendable (Int) async throws -> Void
    ) async throws -> Int {
        let final = path(of: key)
        let count = try await run(key, source: staged) { () throws(FileSystemError) -> Int? in
            let status = try FileStatus(path: staged, followingSymlinks: false)
            switch status.kind {
            case .directory:
                let count = try Self.fileCount(staged)
                try Directory.create(Directory.parent(of: final))
                try StagingDirectory(existing: staged).publish(to: final)
                return count
            case .regular:
                let name = String(staged.split(separator: "/").last ?? "")
                try Directory.create(Directory.parent(of: final))
                try StagingDirectory(existing: Directory.parent(of: staged)).publish(name, to: final)
                return 1
            default:
                return nil
            }
        }
        guard let count else { throw MediaStoreError.notFound(key: staged) }
        try await afterEach(count)
        return count
    }
}
