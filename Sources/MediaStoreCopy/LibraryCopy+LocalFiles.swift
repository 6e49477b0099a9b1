internal import FileSystem
internal import MediaStore
internal import NIOCore
internal import NIOPosix

extension LibraryCopy {
    /// An object as a local file, with what is known of its bytes.
    struct LocalFile: Sendable {
        let path: String
        let size: Int64
        /// SHA-256 (hex) of the file's bytes.
        let hash: String
        /// The hash the store recorded with the object, if it keeps one.
        let recorded: String?
    }

    /// An object's size and SHA-256 (hex), however they were learnt.
    struct Fingerprint: Sendable, Equatable {
        let size: Int64
        let hash: String
    }

    /// `body` with the whole object `key` of `store` as a local file: the store's own file where its body offers it
    /// (a directory), otherwise a file in `scratch` the object is streamed into (S3), so a large original is never
    /// held in memory; that file is removed afterwards, whatever happens. All file work runs on the thread pool.
    /// - Throws: what `get` throws; `MediaStoreError.unavailable` when the body ends short; `FileSystemError` or
    ///   `ReadOnlyFile.OpenError` for the local file; what `body` throws.
    func withLocalFile<T: Sendable>(
        of key: MediaKey, in store: any MediaStore, _ body: (LocalFile) async throws -> T
    ) async throws -> T {
        let read = try await store.get(key, range: nil, ifNoneMatch: nil)
        let recorded = read.info.metadata[Self.hashName]
        if let local = read.body.localFile, local.offset == 0, local.count == read.info.size {
            let path = local.path
            let hash = try await threadPool.runIfActive { try ContentHash.sha256(ofFile: path) }
            return try await body(LocalFile(path: path, size: local.count, hash: hash, recorded: recorded))
        }
        let path = scratch + "/object-\(UInt64.random(in: 0...UInt64.max))"
        let scratch = self.scratch
        let file = try await threadPool.runIfActive { () throws -> WritableFile in
            try Directory.create(scratch)
            return try WritableFile(path: path)
        }
        do {
            var written: Int64 = 0
            for try await chunk in read.body.stream {
                let at = written
                try await threadPool.runIfActive { try chunk.withUnsafeReadableBytes { try file.write($0, at: at) } }
                written += Int64(chunk.readableBytes)
            }
            guard written == read.info.size else {
                throw MediaStoreError.unavailable(
                    "\(store.name)/\(key): got \(written) bytes of the \(read.info.size) announced")
            }
            let hash = try await threadPool.runIfActive { try ContentHash.sha256(ofFile: path) }
            let result = try await body(LocalFile(path: path, size: written, hash: hash, recorded: recorded))
            try await threadPool.runIfActive { try Directory.removeFile(path) }
            return result
        } catch {
            try? await threadPool.runIfActive { Directory.remove(path) }
            throw error
        }
    }

    /// Removes the scratch directory once the copy is done with it, unless something else is in it.
    func removeScratchIfEmpty() async {
        let scratch = self.scratch
        _ = try? await threadPool.runIfActive { Directory.removeIfEmpty(scratch) }
    }
}
