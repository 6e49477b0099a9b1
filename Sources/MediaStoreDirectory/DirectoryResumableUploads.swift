internal import FileSystem
package import MediaModel
package import MediaStore
package import NIOPosix

/// Uploads into a library directory: each one a file, `.uploads/<id>`, written at the acknowledged offset and
/// fdatasynced before the offset is acknowledged; a finished one moves to `.incoming/<id>`, where the worker takes
/// it as the original of job `<id>`. Every file-system call runs on `threadPool`.
package struct DirectoryResumableUploads: ResumableUploads {
    package let layout: LibraryLayout
    let threadPool: NIOThreadPool

    /// Makes `.uploads` and `.incoming` below `library` (once, at start-up).
    /// - Throws: `MediaStoreError.full`, `.unavailable`, `.failed` when they cannot be made.
    package init(library: String, threadPool: NIOThreadPool = .singleton) throws(MediaStoreError) {
        layout = LibraryLayout(root: library)
        self.threadPool = threadPool
        do {
            try Directory.create(layout.uploads)
            try Directory.create(layout.incoming)
        } catch {
            throw DirectoryMediaStore.storeError(error, key: layout.uploads)
        }
    }

    package var name: String { layout.root }

    /// Nothing to make: the first bytes create the file.
    package func begin(id: String) async throws {}

    package func writer(id: String, offset: Int64) async throws -> any ResumableUploadWriter {
        let path = layout.upload(id)
        let file = try await run(path) { () throws(FileSystemError) -> WritableFile? in
            guard offset == 0 || Directory.exists(path) else { return nil }
            let file = try WritableFile(path: path)
            guard try file.size >= offset else { return nil }
            try file.truncate(to: offset)  // bytes past the acknowledged offset are never trusted
            return file
        }
        guard let file else { throw MediaStoreError.notFound(key: "\(path) (short of offset \(offset))") }
        return DirectoryUploadWriter(file: file, folder: layout.uploads, start: offset, threadPool: threadPool)
    }

    /// A rename into `.incoming` and both folders synced; nothing to do once the file has moved (and perhaps been
    /// taken by the worker since).
    package func complete(id: String, length: Int64) async throws {
        let (source, destination, layout) = (layout.upload(id), layout.incoming(id), layout)
        try await run(source) { () throws(FileSystemError) in
            guard Directory.exists(source) && !Directory.exists(destination) else { return }
            try Directory.move(source, to: destination)
            try Directory.sync(layout.incoming)
            try Directory.sync(layout.uploads)
        }
    }

    package func discard(id: String) async throws {
        let path = layout.upload(id)
        try await run(path) { () throws(FileSystemError) in try Directory.removeFile(path) }
    }

    /// `body` on the thread pool, its `FileSystemError` turned into the store's case for `path`.
    func run<T: Sendable>(_ path: String, _ body: @escaping @Sendable () throws(FileSystemError) -> T) async throws -> T
    {
        do {
            return try await threadPool.runIfActive { () throws -> T in try body() }
        } catch let error as FileSystemError {
            throw DirectoryMediaStore.storeError(error, key: path)
        }
    }
}
