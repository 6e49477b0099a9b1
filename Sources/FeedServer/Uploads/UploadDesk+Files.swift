internal import Catalog
internal import FileSystem
internal import Hummingbird
internal import MediaModel
internal import NIOCore
internal import NIOPosix

extension UploadDesk {
    /// A PATCH body into `.uploads/<id>` at the acknowledged offset: fsync, sniff the first bytes, record the offset.
    func appendToFile(
        _ layout: LibraryLayout, to record: UploadRecord, checksum: UploadChecksum?, body: RequestBody, now: Int64
    ) async throws -> UploadRecord {
        let path = layout.upload(record.id)
        let file = try await threadPool.runIfActive { () throws(FileSystemError) -> WritableFile in
            let file = try WritableFile(path: path)
            try file.truncate(to: record.received)  // bytes past the acknowledged offset are never trusted
            return file
        }
        let digest = try checksum.map { try ContentHash($0.algorithm) }
        var position = record.received
        var interruption: (any Error)?
        // Buffers are written a megabyte at a time, one thread-pool hop each, and each megabyte's writeback starts
        // at once, so the fsync at the end finds little left to write.
        var pending: [ByteBuffer] = []
        var pendingStart = position
        do {
            for try await buffer in body {
                let count = Int64(buffer.readableBytes)
                guard position + count <= record.length else {
                    try await threadPool.runIfActive { try file.truncate(to: record.received) }
                    throw APIError(
                        .badRequest, code: "exceeds_upload_length",
                        message: "upload \(record.id) declared \(record.length) bytes; this PATCH goes past them")
                }
                if let digest { buffer.withUnsafeReadableBytes { digest.update($0) } }
                pending.append(buffer)
                position += count
                if position - pendingStart >= Self.writeBatchBytes {
                    try await write(pending, to: file, at: pendingStart)
                    pending.removeAll(keepingCapacity: true)
                    pendingStart = position
                }
            }
            try await write(pending, to: file, at: pendingStart)
        } catch let error as APIError {
            throw error
        } catch let error as FileSystemError {
            throw error
        } catch {
            // The client went away mid-body: keep what arrived (tus lets a client resume from there) unless a
            // checksum was promised, which a partial body cannot meet.
            interruption = error
            try await write(pending, to: file, at: pendingStart)
        }
        if let checksum, let digest {
            guard interruption == nil, digest.finishBytes() == checksum.digest else {
                try await threadPool.runIfActive { try file.truncate(to: record.received) }
                if let interruption { throw interruption }
                throw Self.checksumMismatch(checksum)
            }
        }
        guard position > record.received else {
            if let interruption { throw interruption }
            return record
        }
        try await threadPool.runIfActive {
            try file.sync()
            // The first acknowledged bytes of a file created by this PATCH (or by one that acknowledged nothing):
            // its entry in `.uploads` must reach the disk too, or a power loss keeps the offset and loses the file.
            if record.received == 0 { try Directory.sync(layout.uploads) }
        }
        try await sniffIfDue(record, upTo: position, in: layout)
        try await acknowledge(record, to: position, now: now)
        if let interruption { throw interruption }
        return try await acknowledged(record, at: position, now: now)
    }

    /// Writes `buffers` one after another from `offset` on the thread pool, and starts their writeback.
    func write(_ buffers: [ByteBuffer], to file: WritableFile, at offset: Int64) async throws {
        let count = buffers.reduce(0) { $0 + $1.readableBytes }
        guard count > 0 else { return }
        try await threadPool.runIfActive {
            var at = offset
            for buffer in buffers {
                try buffer.withUnsafeReadableBytes { bytes in try file.write(bytes, at: at) }
                at += Int64(buffer.readableBytes)
            }
            try file.startWriteback(offset: offset, length: count)
        }
    }

    /// Once the first bytes are in (or the whole of a short upload), `sniff` reads them from the file.
    func sniffIfDue(_ record: UploadRecord, upTo position: Int64, in layout: LibraryLayout) async throws {
        let needed = min(record.length, Self.sniffBytes)
        guard record.received < needed, position >= needed else { return }
        let path = layout.upload(record.id)
        let head = try await threadPool.runIfActive { () throws(FileSystemError) -> [UInt8] in
            do { return try ReadOnlyFile(path: path).read(count: Int(needed)) } catch {
                throw FileSystemError("open", path, code: EIO)
            }
        }
        try await sniff(record, head: head)
    }
}
