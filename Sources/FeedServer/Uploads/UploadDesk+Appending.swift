internal import Catalog
internal import FileSystem
internal import Hummingbird
internal import MediaStore
internal import NIOCore

extension UploadDesk {
    /// A PATCH body into the upload from its acknowledged offset: the writer takes the bytes, the first ones are
    /// sniffed, `finish` makes them durable, and only then does the catalog acknowledge the new offset. A checksum
    /// that does not match, or a body past the declared length, acknowledges nothing. A client that goes away
    /// mid-body keeps what arrived (tus lets it resume from there) unless a checksum was promised, which a partial
    /// body cannot meet.
    func appendBody(
        to record: UploadRecord, checksum: UploadChecksum?, body: RequestBody, now: Int64
    ) async throws -> UploadRecord {
        let writer = try await configuration.uploads.writer(id: record.id, offset: record.received)
        let digest = try checksum.map { try ContentHash($0.algorithm) }
        let needed = min(record.length, Self.sniffBytes)
        // A resumed upload still short of the sniffed bytes has its start stored already.
        var head = record.received < needed ? try await writer.acknowledgedPrefix(Int(record.received)) : []
        var position = record.received
        var interruption: (any Error)?
        do {
            for try await buffer in body {
                let count = Int64(buffer.readableBytes)
                guard position + count <= record.length else {
                    try await writer.abandon()
                    throw APIError(
                        .badRequest, code: "exceeds_upload_length",
                        message: "upload \(record.id) declared \(record.length) bytes; this PATCH goes past them")
                }
                if let digest { buffer.withUnsafeReadableBytes { digest.update($0) } }
                if position < needed {
                    head += buffer.getBytes(at: buffer.readerIndex, length: Int(min(count, needed - position))) ?? []
                }
                try await writer.append(buffer)
                position += count
            }
        } catch let error as APIError {
            throw error
        } catch let error as MediaStoreError {
            throw error
        } catch {
            interruption = error
        }
        if let checksum, let digest {
            guard interruption == nil, digest.finishBytes() == checksum.digest else {
                try await writer.abandon()
                if let interruption { throw interruption }
                throw Self.checksumMismatch(checksum)
            }
        }
        guard position > record.received else {
            if let interruption { throw interruption }
            return record
        }
        if record.received < needed, position >= needed { try await sniff(record, head: head) }
        try await writer.finish(at: position, complete: position == record.length)
        try await acknowledge(record, to: position, now: now)
        await writer.acknowledged()
        if let interruption { throw interruption }
        return try await acknowledged(record, at: position, now: now)
    }
}
