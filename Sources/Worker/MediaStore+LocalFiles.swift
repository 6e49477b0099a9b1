internal import FileSystem
internal import MediaStore
internal import NIOCore
internal import NIOPosix

extension MediaStore {
    /// Stores the local file at `path` as `key`, once: create-only, carrying its SHA-256. A key that already holds the
    /// same bytes is this write's own earlier try (a retry after a crash) and is done; other bytes there are refused
    /// and nothing is replaced.
    /// - Returns: the file's SHA-256 (hex).
    /// - Throws: `MediaStoreError.alreadyExists` for other bytes at `key`; what `put` throws; `FileSystemError` or
    ///   `ReadOnlyFile.OpenError` reading `path`.
    @discardableResult
    func storeOnce(file path: String, at key: MediaKey, attributes: MediaAttributes) async throws -> String {
        let hash = try await NIOThreadPool.singleton.runIfActive { try ContentHash.sha256(ofFile: path) }
        var attributes = attributes
        attributes.metadata[MediaAttributes.contentHashName] = hash
        do {
            try await put(key, file: path, attributes: attributes, createOnly: true)
        } catch MediaStoreError.alreadyExists {
            guard try await storedHash(of: key) == hash else { throw MediaStoreError.alreadyExists(key: key.value) }
        }
        return hash
    }

    /// The SHA-256 of the object at `key`: the one it was stored with where the engine keeps metadata, otherwise
    /// computed from its bytes. Nil when there is no such object.
    func storedHash(of key: MediaKey) async throws -> String? {
        guard let info = try await head(key) else { return nil }
        if let recorded = info.metadata[MediaAttributes.contentHashName] { return recorded }
        let read: MediaRead
        do { read = try await get(key, range: nil, ifNoneMatch: nil) } catch MediaStoreError.notFound { return nil }
        if let local = read.body.localFile, local.offset == 0 {
            return try await NIOThreadPool.singleton.runIfActive { try ContentHash.sha256(ofFile: local.path) }
        }
        let digest = try ContentHash(.sha256)
        for try await chunk in read.body.stream {
            chunk.withUnsafeReadableBytes { digest.update($0) }
        }
        return digest.finish()
    }

    /// Copies the object at `key` into a new local file at `path`, hashing its bytes as they arrive and checking them
    /// against the hash it was stored with (where there is one). A partial file is removed. The copy is not synced:
    /// it is scratch beside an object the library keeps, and a worker that crashes fetches it again.
    /// - Returns: the file's SHA-256 (hex); nil when there is no such object.
    /// - Throws: `FileSystemError` writing `path` (a full disk is `isDiskFull`); `MediaStoreError.unavailable` when
    ///   the bytes broke off (whatever the engine's transport threw) or differ from the recorded hash; what `get`
    ///   throws.
    func download(_ key: MediaKey, to path: String) async throws -> String? {
        let read: MediaRead
        do { read = try await get(key, range: nil, ifNoneMatch: nil) } catch MediaStoreError.notFound { return nil }
        let pool = NIOThreadPool.singleton
        let file = try await pool.runIfActive { try WritableFile(path: path) }
        do {
            let digest = try ContentHash(.sha256)
            var written: Int64 = 0
            // Chunks are gathered to a mebibyte, so the thread pool is asked once per mebibyte, not per chunk.
            var pending = ByteBuffer()
            func flush() async throws {
                guard pending.readableBytes > 0 else { return }
                let (bytes, at) = (pending, written)
                try await pool.runIfActive { try bytes.withUnsafeReadableBytes { try file.write($0, at: at) } }
                written += Int64(bytes.readableBytes)
                pending.clear()
            }
            do {
                for try await chunk in read.body.stream {
                    chunk.withUnsafeReadableBytes { digest.update($0) }
                    var chunk = chunk
                    pending.writeBuffer(&chunk)
                    if pending.readableBytes >= 1 << 20 { try await flush() }
                }
                try await flush()
            } catch let error as FileSystemError {
                throw error
            } catch let error as MediaStoreError {
                throw error
            } catch {
                // The engine's transport broke off (a connection reset): worth another try, as a store that is away.
                throw MediaStoreError.unavailable("\(key): the body broke off after \(written) bytes: \(error)")
            }
            guard written == read.info.size else {
                throw MediaStoreError.unavailable("\(key): got \(written) bytes of the \(read.info.size) announced")
            }
            let hash = digest.finish()
            if let recorded = read.info.metadata[MediaAttributes.contentHashName], hash != recorded {
                throw MediaStoreError.unavailable("\(key) arrived with sha256 \(hash), not the recorded \(recorded)")
            }
            return hash
        } catch {
            try? await pool.runIfActive { Directory.remove(path) }
            throw error
        }
    }
}
