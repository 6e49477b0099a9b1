internal import FileSystem
package import MediaStore
package import NIOCore
internal import NIOPosix

#if canImport(Glibc)
internal import Glibc
#endif

/// One request's bytes into `.uploads/<id>`: buffers are written a megabyte at a time, one thread-pool hop each,
/// and each megabyte's writeback starts at once, so the fdatasync of `finish` finds little left to write.
final class DirectoryUploadWriter: ResumableUploadWriter {
    let file: WritableFile
    /// `.uploads`, synced with the first acknowledged bytes of a file.
    let folder: String
    let start: Int64
    let threadPool: NIOThreadPool
    static let batchBytes: Int64 = 1 << 20

    var pending: [ByteBuffer] = []
    var pendingStart: Int64
    var position: Int64

    init(file: WritableFile, folder: String, start: Int64, threadPool: NIOThreadPool) {
        self.file = file
        self.folder = folder
        self.start = start
        self.threadPool = threadPool
        pendingStart = start
        position = start
    }

    func acknowledgedPrefix(_ count: Int) async throws -> [UInt8] {
        let (path, count) = (file.path, Int(min(Int64(count), start)))
        guard count > 0 else { return [] }
        return try await run { () throws -> [UInt8] in
            let reader: ReadOnlyFile
            do { reader = try ReadOnlyFile(path: path) } catch let error as ReadOnlyFile.OpenError {
                if case .failed(let failure) = error { throw failure }
                throw FileSystemError("open", path, code: EINVAL)
            }
            return try reader.read(count: count)
        }
    }

    func append(_ buffer: ByteBuffer) async throws {
        pending.append(buffer)
        position += Int64(buffer.readableBytes)
        if position - pendingStart >= Self.batchBytes { try await flush() }
    }

    func finish(at offset: Int64, complete: Bool) async throws {
        precondition(offset == position, "finish(at: \(offset)) after appending up to \(position)")
        try await flush()
        let (file, folder, isFirst) = (file, folder, start == 0)
        try await run { () throws in
            try file.sync()
            // The first acknowledged bytes of a file made by this request (or by one that acknowledged nothing):
            // its entry in `.uploads` must reach the disk too, or a power loss keeps the offset and loses the file.
            if isFirst { try Directory.sync(folder) }
        }
    }

    /// Nothing to tidy: the file is the upload's only state.
    func acknowledged() async {}

    func abandon() async throws {
        pending.removeAll()
        position = start
        pendingStart = start
        let (file, start) = (file, start)
        try await run { () throws in try file.truncate(to: start) }
    }

    /// Writes the pending buffers one after another on the thread pool, and starts their writeback.
    func flush() async throws {
        let (buffers, offset, file) = (pending, pendingStart, file)
        pending.removeAll(keepingCapacity: true)
        pendingStart = position
        let count = buffers.reduce(0) { $0 + $1.readableBytes }
        guard count > 0 else { return }
        try await run { () throws in
            var at = offset
            for buffer in buffers {
                try buffer.withUnsafeReadableBytes { bytes in try file.write(bytes, at: at) }
                at += Int64(buffer.readableBytes)
            }
            try file.startWriteback(offset: offset, length: count)
        }
    }

    /// `body` on the thread pool, its `FileSystemError` turned into the store's case for the file.
    func run<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        do {
            return try await threadPool.runIfActive(body)
        } catch let error as FileSystemError {
            throw DirectoryMediaStore.storeError(error, key: file.path)
        }
    }
}
