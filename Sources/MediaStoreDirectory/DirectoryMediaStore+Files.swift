internal import FileSystem
internal import MediaModel
internal import MediaStore
internal import NIOCore
internal import NIOPosix

extension DirectoryMediaStore {
    /// `body` on the thread pool, its `FileSystemError` turned into the `MediaStoreError` for `key` (or for
    /// `source`, the local file read, when that is what is missing); a `MediaStoreError` it throws passes as it is.
    func run<T: Sendable, Failure: Error>(
        _ key: some CustomStringConvertible & Sendable, source: String? = nil,
        _ body: @escaping @Sendable () throws(Failure) -> T
    ) async throws -> T {
        do {
            return try await threadPool.runIfActive { () throws -> T in try body() }
        } catch let error as FileSystemError {
            if let source, error.isNotFound, error.path == source { throw MediaStoreError.notFound(key: source) }
            throw Self.storeError(error, key: key.description)
        }
    }

    /// The store's case for a file-system failure on `key`.
    static func storeError(_ error: FileSystemError, key: String) -> MediaStoreError {
        if error.isNotFound { return .notFound(key: key) }
        if error.isAlreadyExists { return .alreadyExists(key: key) }
        if error.isDiskFull { return .full("\(key): \(error)") }
        if error.isTransient { return .unavailable("\(key): \(error)") }
        return .failed("\(key): \(error)")
    }

    /// The canonical path and facts of `key`, or nil unless it is a regular file that, once symlinks are followed,
    /// is still inside the root and in the key's own top folder, or in another of `linkableFolders` when the key's is
    /// one (a link in `videos/` may reach `images/`, never `originals/`). Blocks on `realpath` and `lstat`: run on
    /// the thread pool.
    func resolve(_ key: MediaKey) -> (path: String, info: MediaObjectInfo)? {
        guard let resolved = try? CanonicalPath(resolving: path(of: key)),
            let inside = resolved.relativePath(under: canonicalRoot),
            mayLink(from: key.value, to: inside),
            let status = try? FileStatus(path: resolved.path, followingSymlinks: false), status.kind == .regular
        else { return nil }
        return (resolved.path, info(key.value, status: status))
    }

    /// Whether a key under one top folder may resolve to a file under `target`'s.
    func mayLink(from key: String, to target: String) -> Bool {
        guard let from = Self.topFolder(key), let to = Self.topFolder(target) else { return false }
        if from == to { return true }
        return linkableFolders.contains { Array($0.utf8)[...] == from }
            && linkableFolders.contains { Array($0.utf8)[...] == to }
    }

    /// The first component's bytes (compared as bytes, as the file system does).
    static func topFolder(_ path: String) -> ArraySlice<UInt8>? {
        let bytes = Array(path.utf8)
        return bytes.split(separator: UInt8(ascii: "/"), maxSplits: 1).first
    }

    /// What `head` says about a file: its type and caching from its name, its tag from size, mtime and inode.
    func info(_ key: MediaKey, status: FileStatus) -> MediaObjectInfo { info(key.value, status: status) }

    func info(_ key: String, status: FileStatus) -> MediaObjectInfo {
        let contentType = MediaPolicy.contentType(forName: key[...])
        let seconds = Self.floorDivide(status.modified, by: 1_000_000_000).quotient
        return MediaObjectInfo(
            key: key, size: status.size, etag: Self.etag(status), lastModified: IMFDate.format(seconds),
            modifiedSeconds: seconds, contentType: contentType,
            cacheControl: MediaPolicy.cacheControl(forKey: key))
    }

    /// Published files never change in place (whole directories are renamed in), so size, mtime and inode identify
    /// the bytes. The mtime is in microseconds, rounded to the nearest.
    static func etag(_ status: FileStatus) -> String {
        let (microseconds, nanoseconds) = floorDivide(status.modified, by: 1_000)
        let rounded = nanoseconds >= 500 ? microseconds + 1 : microseconds
        return "\"\(String(status.size, radix: 16))-\(String(rounded, radix: 16))-\(String(status.inode, radix: 16))\""
    }

    /// Division rounding towards minus infinity, so a time before 1970 still falls in the right second.
    static func floorDivide(_ value: Int64, by divisor: Int64) -> (quotient: Int64, remainder: Int64) {
        let (quotient, remainder) = value.quotientAndRemainder(dividingBy: divisor)
        return remainder < 0 ? (quotient - 1, remainder + divisor) : (quotient, remainder)
    }

    /// Every regular file whose key starts with `prefix`, walked from the deepest folder the prefix names whole;
    /// hidden names (staging, `.uploads`), temporary files and symlinks are skipped. In byte order, as S3 lists.
    /// `strictly`, any entry under `prefix` other than those, a regular file or a directory (a symlink, a FIFO, a
    /// name that is not UTF-8) is thrown as `MediaStoreError.notAnObject` instead of skipped.
    /// - Throws: `FileSystemError`; `MediaStoreError.notAnObject`.
    func listing(prefix: String, strictly: Bool) throws -> [MediaObjectInfo] {
        let folder = prefix.lastIndex(of: "/").map { String(prefix[..<$0]) } ?? ""
        guard folder.isEmpty || MediaKey.problem(folder) == nil else { return [] }
        var found: [MediaObjectInfo] = []
        func walk(_ relative: String) throws {
            let entries: [DirectoryEntry]
            do throws(FileSystemError) {
                entries = try Directory.entries(of: relative.isEmpty ? root : root + "/" + relative)
            } catch {
                if error.isNotFound || error.isNotDirectory { return }
                throw error
            }
            for entry in entries where entry.name.first != UInt8(ascii: ".") {
                guard let name = String(validating: entry.name, as: UTF8.self) else {
                    let key = (relative.isEmpty ? "" : relative + "/") + String(decoding: entry.name, as: UTF8.self)
                    if strictly, key.hasPrefix(prefix) {
                        throw MediaStoreError.notAnObject(key: key, entry: .nameNotUTF8)
                    }
                    continue
                }
                guard !name.contains(".tmp-") else { continue }
                let key = relative.isEmpty ? name : relative + "/" + name
                switch entry.kind {
                case .regular where key.hasPrefix(prefix):
                    guard let status = try? FileStatus(path: root + "/" + key, followingSymlinks: false) else {
                        continue  // gone since the listing
                    }
                    found.append(info(key, status: status))
                case .directory where (key + "/").hasPrefix(prefix) || prefix.hasPrefix(key + "/"):
                    try walk(key)
                case .regular, .directory:
                    continue
                case .symlink where strictly && key.hasPrefix(prefix):
                    throw MediaStoreError.notAnObject(key: key, entry: .symlink)
                case let kind where strictly && key.hasPrefix(prefix):
                    throw MediaStoreError.notAnObject(key: key, entry: .special(kind.description))
                default:
                    continue
                }
            }
        }
        try walk(folder)
        return found.sorted { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }
    }

    /// How many regular files are under `path`.
    static func fileCount(_ path: String) throws(FileSystemError) -> Int {
        var count = 0
        for entry in try Directory.entries(of: path) {
            switch entry.kind {
            case .regular: count += 1
            case .directory: count += try fileCount(path + "/" + String(decoding: entry.name, as: UTF8.self))
            default: continue
            }
        }
        return count
    }

    /// `count` bytes of the file at `path` from `offset`, read in chunks on the thread pool when the stream is read.
    func stream(path: String, key: MediaKey, offset: Int64, count: Int64) -> MediaByteStream {
        let pool = threadPool
        return MediaByteStream(next: {
            let reader = ChunkReader(path: path, key: key.value, position: offset, remaining: count, pool: pool)
            return { try await reader.next() }
        })
    }
}

/// Reads one body's chunks in turn; used by one iterator, never shared.
private final class ChunkReader {
    let path: String
    let key: String
    var position: Int64
    var remaining: Int64
    let pool: NIOThreadPool
    var file: ReadOnlyFile?

    init(path: String, key: String, position: Int64, remaining: Int64, pool: NIOThreadPool) {
        self.path = path
        self.key = key
        self.position = position
        self.remaining = remaining
        self.pool = pool
    }

    func next() async throws -> ByteBuffer? {
        guard remaining > 0 else { return nil }
        let (path, key, at) = (self.path, self.key, position)
        let count = Int(min(remaining, Int64(DirectoryMediaStore.chunkBytes)))
        let open = file
        let (opened, bytes) = try await pool.runIfActive { () throws -> (ReadOnlyFile, [UInt8]) in
            let file: ReadOnlyFile
            if let open {
                file = open
            } else {
                do { file = try ReadOnlyFile(path: path) } catch { throw MediaStoreError.notFound(key: key) }
            }
            do throws(FileSystemError) { return (file, try file.read(count: count, at: at)) } catch {
                throw DirectoryMediaStore.storeError(error, key: key)
            }
        }
        file = opened
        guard !bytes.isEmpty else {
            throw MediaStoreError.unavailable("\(key): the file ended \(remaining) bytes early")
        }
        position += Int64(bytes.count)
        remaining -= Int64(bytes.count)
        return ByteBuffer(bytes: bytes)
    }
}
