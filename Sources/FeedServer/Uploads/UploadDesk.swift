package import Catalog
internal import FileSystem
internal import Foundation
internal import Hummingbird
internal import MediaModel
internal import MediaStore
internal import Synchronization

/// Takes uploads over HTTP (tus) and hands each finished one to the job queue, as the job with the upload's id: the
/// bytes go to the configured `ResumableUploads` engine (a library directory's `.uploads/`, or a multipart upload in
/// object storage), which hands the finished upload over as the job's original. Nothing here trusts a byte past the
/// last acknowledged offset, and nothing is acknowledged before the engine made it durable and the catalog recorded
/// it, so any server on the same catalog and storage can take the next PATCH.
package final class UploadDesk: Sendable {
    /// The uploads' records and the tokens that authorize them; a finished upload becomes a queued job through
    /// `UploadLedger.finishUpload`, so the desk needs no other part of the job queue.
    package let store: any UploadLedger & TokenRegistry
    package let configuration: UploadConfiguration
    /// Uploads with a PATCH in progress in this process: a second one at the same time is refused.
    private let busy = Mutex<Set<String>>([])
    private let buckets = Mutex<[String: TokenBucket]>([:])
    let clock: @Sendable () -> Double

    /// Enough bytes to tell every accepted format apart from playlists, SVG and text.
    static let sniffBytes: Int64 = 512

    package convenience init(store: any UploadLedger & TokenRegistry, configuration: UploadConfiguration) {
        self.init(store: store, configuration: configuration, clock: { ProcessInfo.processInfo.systemUptime })
    }

    init(
        store: any UploadLedger & TokenRegistry, configuration: UploadConfiguration,
        clock: @escaping @Sendable () -> Double
    ) {
        self.store = store
        self.configuration = configuration
        self.clock = clock
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
            // `reel token create` stores only positive rates, but the row is the catalog's: 0, a negative rate or
            // NaN written there would trap TokenBucket's precondition. Such a token admits no request.
            guard rate > 0 else {
                throw APIError(
                    .tooManyRequests, code: "rate_limited",
                    message:
                        "token \"\(token.name)\" has a rate limit of \(rate) requests per second, which admits none; reel token create makes another"
                )
            }
            let now = clock()
            let wait: Double? = buckets.withLock { buckets in
                var bucket = buckets[token.id] ?? TokenBucket(capacity: max(1, 2 * rate), ratePerSecond: rate, now: now)
                let wait = bucket.take(now: now)
                buckets[token.id] = bucket
                return wait
            }
            if let wait {
                let seconds = TokenBucket.retryAfterSeconds(wait)
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
        let post = try metadata.post(defaultCreator: token.name)
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
            expiresAt: now + configuration.expirySeconds * 1000, post: post)
        let quota = token.quota.overriding(configuration.quota)
        try await configuration.uploads.begin(id: record.id)
        let refusal: UploadQuota.Refusal?
        do {
            refusal = try await store.createUpload(record, within: quota)
        } catch {
            try? await configuration.uploads.discard(id: record.id)
            throw error
        }
        if let refusal {
            try? await configuration.uploads.discard(id: record.id)
            throw Self.overQuota(refusal, token: token)
        }
        return record
    }

    /// 429 with `Retry-After` for a token over one of its limits; 413 when this upload alone is over its bytes in
    /// flight, which no wait can change.
    static func overQuota(_ refusal: UploadQuota.Refusal, token: UploadToken) -> APIError {
        let name = "token \"\(token.name)\""
        switch refusal.limit {
        case .bytesInFlight where !refusal.canEverFit:
            return APIError(
                .contentTooLarge, code: "exceeds_bytes_in_flight",
                message:
                    "\(name) may have \(refusal.allowed) bytes of unfinished uploads; this upload alone declares more")
        case .concurrentUploads:
            return APIError(
                .tooManyRequests, code: "too_many_open_uploads",
                message:
                    "\(name) has \(refusal.used) unfinished uploads, its limit; finish or terminate one (DELETE), or retry in \(refusal.retryAfterSeconds) s",
                headers: [.retryAfter: String(refusal.retryAfterSeconds)])
        case .bytesInFlight:
            return APIError(
                .tooManyRequests, code: "too_many_bytes_in_flight",
                message:
                    "\(name) would have \(refusal.used) bytes of unfinished uploads with this one; its limit is \(refusal.allowed). Finish or terminate one, or retry in \(refusal.retryAfterSeconds) s",
                headers: [.retryAfter: String(refusal.retryAfterSeconds)])
        case .uploadsPerHour:
            return APIError(
                .tooManyRequests, code: "too_many_uploads_this_hour",
                message:
                    "\(name) may start \(refusal.allowed) uploads an hour and has started \(refusal.used); retry in \(refusal.retryAfterSeconds) s",
                headers: [.retryAfter: String(refusal.retryAfterSeconds)])
        }
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
        if record.jobID == nil, !record.isComplete, record.expiresAt <= now {
            try? await remove(record)
            throw APIError.notFound("upload \"\(id.prefix(64))\" (it expired)")
        }
        if record.finishedAt == nil, record.jobID != nil || record.isComplete {
            // A crash after the last byte was acknowledged: finish the hand-over now.
            record = try await finishHandOver(record, now: now)
        }
        return record
    }

    /// Records the job of a complete upload (its own id; unless one was recorded first) and hands the upload over;
    /// safe to repeat, and two servers doing it at once agree on the job the catalog kept.
    func finishHandOver(_ record: UploadRecord, now: Int64) async throws -> UploadRecord {
        var record = record
        if record.jobID == nil {
            try await store.assignUploadJob(id: record.id, jobID: record.id, now: now)
            record = try await store.upload(id: record.id) ?? record
        }
        guard let jobID = record.jobID else {
            throw APIError(
                .conflict, code: "upload_busy", message: "upload \(record.id) is being finished; ask again shortly")
        }
        try await handOver(record, jobID: jobID, now: now)
        return try await store.upload(id: record.id) ?? record
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
        return try await appendBody(to: record, checksum: checksum, body: body, now: now)
    }

    static func checksumMismatch(_ checksum: UploadChecksum) -> APIError {
        APIError(
            HTTPResponse.Status(code: 460, reasonPhrase: "Checksum Mismatch"), code: "checksum_mismatch",
            message:
                "the \(checksum.algorithm.rawValue) of this PATCH's body does not match Upload-Checksum; the bytes were discarded"
        )
    }

    /// Records `position` as the upload's offset, if no other PATCH moved it first.
    func acknowledge(_ record: UploadRecord, to position: Int64, now: Int64) async throws {
        guard
            try await store.advanceUpload(
                id: record.id, from: record.received, to: position,
                expiresAt: now + configuration.expirySeconds * 1000, now: now)
        else {
            throw APIError(
                .conflict, code: "offset_mismatch",
                message: "upload \(record.id) moved on during this PATCH; HEAD tells the offset")
        }
    }

    /// The upload as recorded after `acknowledge`, handed over to the job queue once its last byte is in.
    func acknowledged(_ record: UploadRecord, at position: Int64, now: Int64) async throws -> UploadRecord {
        var advanced = record
        advanced.received = position
        advanced.expiresAt = now + configuration.expirySeconds * 1000
        return advanced.isComplete ? try await finishHandOver(advanced, now: now) : advanced
    }

    /// The first bytes (or the whole of a short upload) decide: a playlist, SVG or any refused format ends the
    /// upload here, and its bytes are deleted.
    func sniff(_ record: UploadRecord, head: [UInt8]) async throws {
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

    /// The second half of a finished upload: the engine hands it over as the job's original (the job id was
    /// recorded first), then the queued job and the finished upload are written in one transaction. Safe to repeat.
    func handOver(_ record: UploadRecord, jobID: String, now: Int64) async throws {
        try await configuration.uploads.complete(id: record.id, length: record.length)
        try await store.finishUpload(
            id: record.id, jobID: jobID, sourceName: record.filename, bytes: record.length, post: record.post, now: now)
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

    /// The bytes first (a store that cannot abort the multipart upload now keeps the record, so a later sweep
    /// tries again), then the record.
    func remove(_ record: UploadRecord) async throws {
        try await configuration.uploads.discard(id: record.id)
        try await store.deleteUpload(id: record.id)
    }

    /// Removes every unfinished upload whose expiry has passed; returns how many. One whose last byte was
    /// acknowledged before a crash is handed over instead: a complete upload is never dropped.
    package func removeExpired(now: Int64) async throws -> Int {
        var removed = 0
        for record in try await store.expiredUploads(now: now) where busy.withLock({ !$0.contains(record.id) }) {
            if record.isComplete {
                _ = try await finishHandOver(record, now: now)
                continue
            }
            try await remove(record)
            removed += 1
        }
        return removed
    }
}
