public import FeedStore
public import FileSystem
internal import Foundation
internal import Hummingbird
public import MediaModel
internal import NIOPosix
internal import Synchronization

/// Takes uploads over HTTP (tus) into `.uploads/<id>` and hands each finished one to the job queue, exactly as the
/// worker takes a file from the inbox: the job row and a file in `.incoming/<job>`. Nothing here trusts a byte past
/// the last acknowledged offset, and nothing is acknowledged before it is fsynced and recorded in the catalog.
public final class UploadDesk: Sendable {
    /// The uploads' records and the tokens that authorize them; a finished upload becomes a queued job through
    /// `UploadLedger.finishUpload`, so the desk needs no other part of the job queue.
    public let store: any UploadLedger & TokenRegistry
    public let configuration: UploadConfiguration
    let threadPool: NIOThreadPool
    /// Uploads with a PATCH in progress in this process: a second one at the same time is refused.
    private let busy = Mutex<Set<String>>([])
    private let buckets = Mutex<[String: TokenBucket]>([:])
    let clock: @Sendable () -> Double

    /// Enough bytes to tell every accepted format apart from playlists, SVG and text.
    static let sniffBytes: Int64 = 512
    static let writeBatchBytes: Int64 = 1 << 20

    public convenience init(
        store: any UploadLedger & TokenRegistry,
        configuration: UploadConfiguration
    ) throws(FileSystemError) {
        try self.init(
            store: store, configuration: configuration, threadPool: .singleton,
            clock: { ProcessInfo.processInfo.systemUptime })
    }

    init(
        store: any UploadLedger & TokenRegistry, configuration: UploadConfiguration, threadPool: NIOThreadPool,
        clock: @escaping @Sendable () -> Double
    ) throws(FileSystemError) {
        self.store = store
        self.configuration = configuration
        self.threadPool = threadPool
        self.clock = clock
        try Directory.create(configuration.layout.uploads)
        try Directory.create(configuration.layout.incoming)
    }

    // MARK: Tokens

    /// The token in `Authorization`, or a 401.
    func authenticate(_ authorization: String?) async throws -> UploadToken {
        guard let secret = BearerToken.fromAuthorization(authorization) else {
            throw Self.unauthorized("this request needs Authorization: Bearer <token> (reel token create makes one)")
        }
        guard let token = try await store.token(hash: try BearerToken.hash(secret)), !token.isRevoked else {
            throw Self.unauthorized("the bearer token is unknown or revoked")
        }
        if let rate = token.rateLimit {
            let now = clock()
            let wait: Double? = buckets.withLock { buckets in
                var bucket = buckets[token.id] ?? TokenBucket(capacity: max(1, 2 * rate), ratePerSecond: rate, now: now)
                let wait = bucket.take(now: now)
                buckets[token.id] = bucket
                return wait
            }
            if let wait {
                let seconds = max(1, Int(wait.rounded(.up)))
                throw APIError(
                    .tooManyRequests, code: "rate_limited",
                    message: "token \"\(token.name)\" is limited to \(rate) requests per second; retry in \(seconds) s",
                    headers: [.retryAfter: String(seconds)])
            }
        }
        return token
    }

    static func unauthorized(_ message: String) -> APIError {
        APIError(
            .unauthorized, code: "unauthorized", message: message, headers: [.wwwAuthenticate: "Bearer realm=\"reel\""])
    }

    // MARK: Creation

    /// A new upload of `length` bytes for `token`: refused at once when the declared length is over the limit.
    func create(token: UploadToken, length: Int64, metadataHeader: String?, now: Int64) async throws -> UploadRecord {
        let metadata = try UploadMetadata(header: metadataHeader)
        let name = metadata.filename.map { "\"\(String(decoding: $0, as: UTF8.self))\"" } ?? "the upload"
        guard length > 0 else {
            throw APIError(
                .unprocessableContent, code: RejectionReason.emptyFile.rawValue,
                message: "\(name) is empty (Upload-Length: 0)")
        }
        let limit = metadata.declaresImage ? configuration.maximumImageBytes : configuration.maximumBytes
        guard length <= limit else {
            throw Self.tooLarge(name: name, length: length, limit: limit, image: metadata.declaresImage)
        }
        let record = UploadRecord(
            id: LibraryLayout.newID(), tokenID: token.id, length: length, metadata: metadataHeader ?? "",
            filename: metadata.filename ?? Array("upload".utf8), createdAt: now, updatedAt: now,
            expiresAt: now + configuration.expirySeconds * 1000)
        try await store.createUpload(record)
        return record
    }

    static func tooLarge(name: String, length: Int64, limit: Int64, image: Bool) -> APIError {
        APIError(
            .contentTooLarge, code: RejectionReason.tooLarge.rawValue,
            message:
                "\(name) is \(length) bytes; \(image ? "images" : "uploads") are limited to \(limit) bytes (\(limit / 1_000_000) MB)"
        )
    }

    // MARK: Reading

    /// The caller's own upload, or 404: another token's upload is as invisible as a missing one.
    func upload(id: String, token: UploadToken, now: Int64) async throws -> UploadRecord {
        guard LibraryLayout.isID(id), var record = try await store.upload(id: id), record.tokenID == token.id else {
            throw APIError.notFound("upload \"\(id.prefix(64))\"")
        }
        if record.jobID == nil, record.expiresAt <= now {
            try? await remove(record)
            throw APIError.notFound("upload \"\(id.prefix(64))\" (it expired)")
        }
        if let jobID = record.jobID, record.finishedAt == nil {
            try await handOver(record, jobID: jobID, now: now)  // a crash between the two steps: finish it now
            record = try await store.upload(id: id) ?? record
        }
        return record
    }

    // MARK: Appending

    /// Writes a PATCH body at `offset`, then acknowledges it: fsync, sniff the first bytes, record the offset.
    /// - Returns: the upload as recorded, and its job once the last byte is in.
    func append(
        to record: UploadRecord, offset: Int64, checksum: UploadChecksum?, body: RequestBody, now: Int64
    ) async throws
        -> UploadRecord
    {
        if let jobID = record.jobID {
            throw APIError(
                .conflict, code: "upload_finished", message: "upload \(record.id) is complete and became job \(jobID)",
                headers: [TusHeader.reelJob: "/v1/jobs/\(jobID)"])
        }
        guard offset == record.received else {
            throw APIError(
                .conflict, code: "offset_mismatch",
                message:
                    "Upload-Offset is \(offset) but the server has \(record.received) bytes of upload \(record.id); HEAD tells the offset to resume from"
            )
        }
        guard busy.withLock({ $0.insert(record.id).inserted }) else {
            throw APIError(
                .conflict, code: "upload_busy", message: "another PATCH to upload \(record.id) is in progress")
        }
        defer { _ = busy.withLock { $0.remove(record.id) } }

        let path = configuration.layout.upload(record.id)
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
                throw APIError(
                    HTTPResponse.Status(code: 460, reasonPhrase: "Checksum Mismatch"), code: "checksum_mismatch",
                    message:
                        "the \(checksum.algorithm.rawValue) of this PATCH's body does not match Upload-Checksum; the bytes were discarded"
                )
            }
        }
        guard position > record.received else {
            if let interruption { throw interruption }
            return record
        }
        try await threadPool.runIfActive { try file.sync() }
        try await sniffIfDue(record, upTo: position)
        guard
            try await store.advanceUpload(
                id: record.id, from: record.received, to: position,
                expiresAt: now + configuration.expirySeconds * 1000, now: now)
        else {
            throw APIError(
                .conflict, code: "offset_mismatch",
                message: "upload \(record.id) moved on during this PATCH; HEAD tells the offset")
        }
        if let interruption { throw interruption }
        var advanced = record
        advanced.received = position
        advanced.expiresAt = now + configuration.expirySeconds * 1000
        if advanced.isComplete {
            let jobID = LibraryLayout.newID()
            try await store.assignUploadJob(id: record.id, jobID: jobID, now: now)
            try await handOver(advanced, jobID: jobID, now: now)
            advanced.jobID = jobID
            advanced.finishedAt = now
        }
        return advanced
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

    /// Once the first bytes are in (or the whole of a short upload), they decide: a playlist, SVG or any refused
    /// format ends the upload here, and its bytes are deleted.
    func sniffIfDue(_ record: UploadRecord, upTo position: Int64) async throws {
        let needed = min(record.length, Self.sniffBytes)
        guard record.received < needed, position >= needed else { return }
        let path = configuration.layout.upload(record.id)
        let head = try await threadPool.runIfActive { () throws(FileSystemError) -> [UInt8] in
            do { return try ReadOnlyFile(path: path).read(count: Int(needed)) } catch {
                throw FileSystemError("open", path, code: EIO)
            }
        }
        let name =
            (try? UploadMetadata(header: record.metadata))?.filename.map {
                "\"\(String(decoding: $0, as: UTF8.self))\""
            } ?? "the upload"
        let refusal: APIError?
        switch SniffedFormat.sniff(head) {
        case let .forbidden(format):
            refusal = APIError(
                .unprocessableContent, code: RejectionReason.forbiddenFormat.rawValue,
                message: "\(name) is a \(format) file; those are never opened (they can reference other files or URLs)")
        case let .unsupported(format):
            refusal = APIError(
                .unprocessableContent, code: RejectionReason.unsupportedFormat.rawValue,
                message: "\(name) is \(format), which is not an accepted upload format")
        case .unknown:
            refusal = APIError(
                .unprocessableContent, code: RejectionReason.unsupportedFormat.rawValue,
                message: "\(name) is not a recognised video or image format")
        case let format where format.isImage && record.length > configuration.maximumImageBytes:
            refusal = Self.tooLarge(
                name: name, length: record.length, limit: configuration.maximumImageBytes, image: true)
        default:
            refusal = nil
        }
        if let refusal {
            try await remove(record)
            throw refusal
        }
    }

    /// The second half of a finished upload: the file moves into `.incoming/<job>` (the job id was recorded first),
    /// then the queued job and the finished upload are written in one transaction. Safe to repeat.
    func handOver(_ record: UploadRecord, jobID: String, now: Int64) async throws {
        let source = configuration.layout.upload(record.id)
        let destination = configuration.layout.incoming(jobID)
        if Directory.exists(source) && !Directory.exists(destination) {
            try Directory.move(source, to: destination)
            try Directory.sync(configuration.layout.incoming)
            try Directory.sync(configuration.layout.uploads)
        }
        try await store.finishUpload(
            id: record.id, jobID: jobID, sourceName: record.filename, bytes: record.length, now: now)
    }

    // MARK: Removal

    /// tus termination: the partial upload and its record are gone. A finished one is already a job.
    func terminate(_ record: UploadRecord) async throws {
        if let jobID = record.jobID {
            throw APIError(
                .conflict, code: "upload_finished",
                message: "upload \(record.id) is complete and became job \(jobID); it cannot be terminated",
                headers: [TusHeader.reelJob: "/v1/jobs/\(jobID)"])
        }
        guard busy.withLock({ !$0.contains(record.id) }) else {
            throw APIError(.conflict, code: "upload_busy", message: "a PATCH to upload \(record.id) is in progress")
        }
        try await remove(record)
    }

    func remove(_ record: UploadRecord) async throws {
        Directory.remove(configuration.layout.upload(record.id))
        try await store.deleteUpload(id: record.id)
    }

    /// Removes every unfinished upload whose expiry has passed; returns how many.
    public func removeExpired(now: Int64) async throws -> Int {
        var removed = 0
        for record in try await store.expiredUploads(now: now) where busy.withLock({ !$0.contains(record.id) }) {
            try await remove(record)
            removed += 1
        }
        return removed
    }
}
