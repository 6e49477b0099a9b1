internal import Catalog
internal import FileSystem
internal import Hummingbird
internal import MediaModel
internal import NIOCore
internal import ObjectStore

extension UploadDesk {
    /// A PATCH body into the store (see `ObjectUploads`): parts go up as they fill, the rest becomes the tail object
    /// of the new offset, and only then does the catalog acknowledge it. A checksum that does not match, or a body
    /// past the declared length, acknowledges nothing: whatever was uploaded is past the catalog's offset and will be
    /// written again.
    func appendToStore(
        _ objects: ObjectUploads, to record: UploadRecord, checksum: UploadChecksum?, body: RequestBody, now: Int64
    ) async throws -> UploadRecord {
        var writer = try await objects.writer(id: record.id, offset: record.received)
        let digest = try checksum.map { try ContentHash($0.algorithm) }
        let needed = min(record.length, Self.sniffBytes)
        // A resumed upload still short of the sniffed bytes has its start in the tail it resumes from.
        var head: [UInt8] =
            record.received < needed
            ? writer.buffer.getBytes(at: writer.buffer.readerIndex, length: Int(record.received)) ?? [] : []
        var position = record.received
        var interruption: (any Error)?
        do {
            for try await buffer in body {
                let count = Int64(buffer.readableBytes)
                guard position + count <= record.length else {
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
        } catch let error as ObjectStoreError {
            throw error
        } catch {
            interruption = error
        }
        if let checksum, let digest {
            guard interruption == nil, digest.finishBytes() == checksum.digest else {
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
        // The tail this PATCH resumed from is superseded; one left behind by a crash goes with the upload's prefix.
        if record.received > 0, let old = try? objects.tailKey(record.id, offset: record.received) {
            try? await objects.client.delete(old)
        }
        if let interruption { throw interruption }
        return try await acknowledged(record, at: position, now: now)
    }
}
