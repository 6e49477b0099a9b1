internal import FileSystem
package import Foundation

/// A tus 1.0.0 client for Reel's `/v1/uploads`: creates an upload, sends the file in checksummed chunks, and after
/// a dropped connection, a server error or a `409 offset_mismatch` asks the server (`HEAD`) where to continue.
///
/// Transient trouble (no answer, 429, 5xx, 460) is retried with `RetryBackoff`, honouring `Retry-After`; refusals
/// become `UploadError`s with the server's reason code.
package struct TusUploader: Sendable {
    /// Where an upload stands on the server.
    package struct ServerState: Sendable, Equatable {
        package var offset: Int64
        package var length: Int64?
        /// `Reel-Job`, when the server reports it for a finished upload.
        package var jobPath: String?
    }

    /// What a finished upload gives back.
    package struct Completion: Sendable, Equatable {
        /// The `Reel-Job` path (`/v1/jobs/{id}`).
        package var jobPath: String
    }

    package let server: URL
    package let token: String
    package let transport: any HTTPTransport
    package let sleeper: any Sleeper
    package let backoff: RetryBackoff
    package let chunkBytes: Int

    package init(
        server: URL, token: String, transport: any HTTPTransport, sleeper: any Sleeper = TaskSleeper(),
        backoff: RetryBackoff = RetryBackoff(), chunkBytes: Int = 5_000_000
    ) {
        precondition(chunkBytes > 0, "chunkBytes must be positive")
        self.server = server
        self.token = token
        self.transport = transport
        self.sleeper = sleeper
        self.backoff = backoff
        self.chunkBytes = chunkBytes
    }

    /// `POST /v1/uploads`: declares the length and metadata (the name, the type, then `post`'s keys in order: the
    /// post's caption, title and creator); returns the absolute upload URL.
    /// - Throws: `UploadError`: `.rejected` (413, 422), `.unauthorized` (401, 403), `.unavailable` after the retries,
    ///   `.failed` for any other refusal or an answer without `Location`, `.interrupted` when cancelled.
    package func create(
        length: Int64, filename: String, filetype: String, post: [(key: String, value: String)] = []
    ) async throws -> URL {
        let endpoint = server.appendingPathComponent("v1/uploads")
        let metadata = ([("filename", filename), ("filetype", filetype)] + post)
            .map { "\($0.0) \(Data($0.1.utf8).base64EncodedString())" }.joined(separator: ",")
        let request = HTTPRequest(
            method: "POST", url: endpoint,
            headers: headers(["Upload-Length": String(length), "Upload-Metadata": metadata]))
        let response = try await sendRetrying(request)
        guard response.status == 201 else { throw refusal(response, to: request) }
        guard let location = response.header("Location"),
            let url = URL(string: location, relativeTo: server)?.absoluteURL
        else {
            throw UploadError(
                .failed(code: "protocol_error"),
                "POST \(endpoint.absoluteString) answered 201 without a usable Location header")
        }
        return url
    }

    /// `HEAD` on an upload: the server's offset, or nil when the upload is gone (404/410: unknown, expired, or
    /// another token's).
    /// - Throws: `UploadError` as for `create`.
    package func state(of upload: URL) async throws -> ServerState? {
        let request = HTTPRequest(method: "HEAD", url: upload, headers: headers([:]))
        let response = try await sendRetrying(request)
        switch response.status {
        case 200, 204:
            guard let offset = response.header("Upload-Offset").flatMap({ Int64($0) }), offset >= 0 else {
                throw UploadError(
                    .failed(code: "protocol_error"),
                    "HEAD \(upload.absoluteString) answered without a valid Upload-Offset")
            }
            return ServerState(
                offset: offset, length: response.header("Upload-Length").flatMap { Int64($0) },
                jobPath: response.header("Reel-Job"))
        case 404, 410: return nil
        default: throw refusal(response, to: request)
        }
    }

    /// Sends `file` from `offset` to its end with `PATCH`es of `chunkBytes`, each with `Upload-Checksum: sha256`.
    /// Returns nil when the upload vanished on the server (404/410), so the caller can start a new one.
    /// - Parameter progress: called with the server's offset after every acknowledged chunk and every `HEAD`.
    /// - Throws: `UploadError` as for `create`; `.failed(read_failed)` when the file cannot be read.
    package func send(
        file path: String, length: Int64, to upload: URL, from offset: Int64,
        progress: @Sendable (Int64) -> Void = { _ in }
    ) async throws -> Completion? {
        let file: ReadOnlyFile
        do { file = try ReadOnlyFile(path: path) } catch {
            throw UploadError(.failed(code: "read_failed"), "cannot open \(path) to upload it: \(error)")
        }
        guard file.size == length else {
            throw UploadError(
                .failed(code: "file_changed"),
                "\(path) is \(file.size) bytes now, not the \(length) declared; start again")
        }
        var offset = offset
        var failures = 0
        var jobPath: String?
        progress(offset)
        while offset < length || jobPath == nil {
            if offset >= length {
                // Complete on the server, but the answer naming the job was lost: HEAD may still name it.
                guard let state = try await state(of: upload) else { return nil }
                if let path = state.jobPath, state.offset >= length { return Completion(jobPath: path) }
                throw UploadError(
                    .failed(code: "job_unknown"),
                    "\(upload.absoluteString) is complete on the server, but the answer naming its job (Reel-Job) was lost and neither HEAD nor 409 upload_finished names it; the job is on the server's job list"
                )
            }
            try checkCancellation()
            let count = Int(min(Int64(chunkBytes), length - offset))
            let chunk: [UInt8]
            do { chunk = try file.read(count: count, at: offset) } catch {
                throw UploadError(.failed(code: "read_failed"), "cannot read \(path) at byte \(offset): \(error)")
            }
            guard chunk.count == count else {
                throw UploadError(
                    .failed(code: "file_changed"),
                    "\(path) ended at byte \(offset + Int64(chunk.count)) while uploading; start again")
            }
            let digest = try checksum(chunk)
            let request = HTTPRequest(
                method: "PATCH", url: upload,
                headers: headers([
                    "Upload-Offset": String(offset), "Content-Type": "application/offset+octet-stream",
                    "Upload-Checksum": "sha256 " + digest,
                ]), body: chunk)
            let response: HTTPResponse
            do { response = try await transport.send(request) } catch {
                try rethrowIfCancelled(error)
                failures += 1
                try await pause(after: failures, request: request, retryAfter: nil, cause: "no answer (\(error))")
                guard let state = try await state(of: upload) else { return nil }
                offset = state.offset
                progress(offset)
                continue
            }
            switch response.status {
            case 200, 204:
                guard let next = response.header("Upload-Offset").flatMap({ Int64($0) }), next > offset, next <= length
                else {
                    throw UploadError(
                        .failed(code: "protocol_error"),
                        "PATCH \(upload.absoluteString) at \(offset) answered \(response.status) with Upload-Offset \(response.header("Upload-Offset") ?? "missing")"
                    )
                }
                offset = next
                failures = 0
                progress(offset)
                if offset == length {
                    guard let job = response.header("Reel-Job") else {
                        throw UploadError(
                            .failed(code: "protocol_error"),
                            "the last PATCH to \(upload.absoluteString) answered without a Reel-Job header")
                    }
                    jobPath = job
                }
            case 409:
                failures += 1
                guard failures <= backoff.maxAttempts else { throw giveUp(request, status: response) }
                guard let state = try await state(of: upload) else { return nil }
                if response.apiError?.code == "upload_finished" || state.offset >= length {
                    // Finished, by this client's earlier request whose answer was lost (or that was interrupted).
                    offset = length
                    if let job = response.header("Reel-Job") ?? state.jobPath { jobPath = job }
                } else {
                    offset = state.offset
                }
                progress(offset)
            case 404, 410:
                return nil
            case 460:
                failures += 1
                try await pause(after: failures, request: request, retryAfter: nil, cause: "checksum_mismatch")
            case 429:
                // Refused before a byte was stored: the same chunk again once Retry-After has passed. A HEAD first
                // would spend the very request budget the server just said was spent.
                failures += 1
                try await pause(
                    after: failures, request: request,
                    retryAfter: RetryBackoff.parseRetryAfter(response.header("Retry-After")), cause: "429")
            case 500, 502, 503, 504:
                failures += 1
                try await pause(
                    after: failures, request: request,
                    retryAfter: RetryBackoff.parseRetryAfter(response.header("Retry-After")),
                    cause: "\(response.status)")
                guard let state = try await state(of: upload) else { return nil }
                offset = state.offset
                progress(offset)
            default:
                throw refusal(response, to: request)
            }
        }
        return Completion(jobPath: jobPath!)
    }

    // MARK: - Helpers

    func headers(_ extra: [String: String]) -> [String: String] {
        var headers = extra
        headers["Tus-Resumable"] = "1.0.0"
        headers["Authorization"] = "Bearer " + token
        return headers
    }

    /// Sends a request that may safely be sent again, retrying transient failures (no answer, 429, 5xx).
    func sendRetrying(_ request: HTTPRequest) async throws -> HTTPResponse {
        var failures = 0
        while true {
            try checkCancellation()
            do {
                let response = try await transport.send(request)
                guard [429, 500, 502, 503, 504].contains(response.status) else { return response }
                failures += 1
                try await pause(
                    after: failures, request: request,
                    retryAfter: RetryBackoff.parseRetryAfter(response.header("Retry-After")),
                    cause: "\(response.status)")
            } catch let error as UploadError {
                throw error
            } catch {
                try rethrowIfCancelled(error)
                failures += 1
                try await pause(after: failures, request: request, retryAfter: nil, cause: "no answer (\(error))")
            }
        }
    }

    /// Waits before retry `failures`, or gives up with `.unavailable` once the attempts are spent.
    func pause(after failures: Int, request: HTTPRequest, retryAfter: Double?, cause: String) async throws {
        guard failures <= backoff.maxAttempts else {
            throw UploadError(
                .unavailable,
                "\(request.method) \(request.url.absoluteString) failed \(failures) times in a row (last: \(cause)); the server at \(server.absoluteString) is unavailable"
            )
        }
        do { try await sleeper.sleep(seconds: backoff.delay(forAttempt: failures, retryAfter: retryAfter)) } catch {
            throw UploadError(
                .interrupted, "interrupted while waiting to retry \(request.method) \(request.url.absoluteString)")
        }
    }

    func giveUp(_ request: HTTPRequest, status response: HTTPResponse) -> UploadError {
        UploadError(
            .unavailable,
            "\(request.method) \(request.url.absoluteString) kept answering \(response.status) \(response.apiError?.code ?? ""); gave up after \(backoff.maxAttempts) attempts"
        )
    }

    /// The error for an answer that is not retried: the token refused, the file refused, or anything else.
    func refusal(_ response: HTTPResponse, to request: HTTPRequest) -> UploadError {
        let api = response.apiError
        let what = "\(request.method) \(request.url.absoluteString)"
        switch response.status {
        case 401, 403:
            return UploadError(
                .unauthorized,
                "the server at \(server.absoluteString) refused the token (\(response.status) \(api?.code ?? "unauthorized")\(api.map { ": " + $0.message } ?? "")); check --token or REEL_TOKEN"
            )
        case 413:
            return UploadError(
                .rejected(code: api?.code ?? "too_large"),
                "\(what): \(api?.message ?? "the upload is over the server's size limit")")
        case 422:
            return UploadError(
                .rejected(code: api?.code ?? "unprocessable"),
                "\(what): \(api?.message ?? "the server refused the file")")
        default:
            return UploadError(
                .failed(code: api?.code ?? "http_\(response.status)"),
                "\(what) answered \(response.status)\(api.map { " \($0.code): \($0.message)" } ?? "")")
        }
    }

    func checksum(_ chunk: [UInt8]) throws -> String {
        do { return Data(try ContentHash.digest(of: chunk)).base64EncodedString() } catch {
            throw UploadError(.failed(code: "digest_failed"), "cannot checksum a chunk: \(error)")
        }
    }

    func checkCancellation() throws {
        if Task.isCancelled {
            throw UploadError(.interrupted, "interrupted; the upload can be resumed by running the same command again")
        }
    }

    func rethrowIfCancelled(_ error: any Error) throws {
        if error is CancellationError || Task.isCancelled {
            throw UploadError(.interrupted, "interrupted; the upload can be resumed by running the same command again")
        }
    }
}
