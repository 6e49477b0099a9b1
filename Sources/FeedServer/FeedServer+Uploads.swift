internal import Catalog
internal import Foundation
internal import Hummingbird
internal import MediaStore
internal import NIOHTTP1

/// `/v1/uploads`: tus 1.0.0 (core, creation, creation-with-upload, termination, expiration, checksum) behind bearer
/// tokens. See docs/uploads.md.
extension FeedServer {
    func addUploadRoutes(to router: Router<FeedRequestContext>, desk: UploadDesk) {
        router.on("/v1/uploads", method: .options) { _, _ in self.tusOptions(desk) }
        router.on("/v1/uploads/:id", method: .options) { _, _ in self.tusOptions(desk) }
        router.post("/v1/uploads") { request, _ in
            try await Self.tus {
                let token = try await self.tusRequest(request, desk: desk)
                return try await self.createUpload(request, token: token, desk: desk)
            }
        }
        router.head("/v1/uploads/:id") { request, context in
            try await Self.tus {
                let token = try await self.tusRequest(request, desk: desk)
                let record = try await desk.upload(
                    id: try context.parameters.require("id"), token: token, now: Self.now)
                var headers = Self.offsetHeaders(record)
                headers[TusHeader.length] = String(record.length)
                if !record.metadata.isEmpty { headers[TusHeader.metadata] = record.metadata }
                if let job = record.jobID { headers[TusHeader.reelJob] = "/v1/jobs/\(job)" }
                return Response(status: .ok, headers: headers)
            }
        }
        router.patch("/v1/uploads/:id") { request, context in
            try await Self.tus {
                let token = try await self.tusRequest(request, desk: desk)
                guard Self.isOffsetStream(request) else {
                    throw APIError(
                        .unsupportedMediaType, code: "invalid_content_type",
                        message: "a PATCH body must be Content-Type: \(TusHeader.offsetContentType)")
                }
                let record = try await desk.upload(
                    id: try context.parameters.require("id"), token: token, now: Self.now)
                let offset = try Self.offsetHeader(request)
                let checksum = try UploadChecksum(header: request.headers[TusHeader.checksum])
                let advanced = try await desk.append(
                    to: record, offset: offset, checksum: checksum, body: request.body, now: Self.now)
                return Response(status: .noContent, headers: Self.offsetHeaders(advanced))
            }
        }
        router.delete("/v1/uploads/:id") { request, context in
            try await Self.tus {
                let token = try await self.tusRequest(request, desk: desk)
                try await desk.terminate(
                    try await desk.upload(id: try context.parameters.require("id"), token: token, now: Self.now))
                return Response(status: .noContent, headers: [.cacheControl: "no-store"])
            }
        }
    }

    func tusOptions(_ desk: UploadDesk) -> Response {
        Response(
            status: .noContent,
            headers: [
                TusHeader.resumable: TusHeader.protocolVersion,
                TusHeader.version: TusHeader.protocolVersion,
                TusHeader.extensions: TusHeader.supportedExtensions,
                TusHeader.maxSize: String(desk.configuration.maximumBytes),
                TusHeader.checksumAlgorithm: "sha1,sha256",
            ])
    }

    /// Every request but OPTIONS: a token first (401 before anything is said about uploads), then the version.
    func tusRequest(_ request: Request, desk: UploadDesk) async throws -> UploadToken {
        let token = try await desk.authenticate(request.headers[.authorization])
        guard request.headers[TusHeader.resumable] == TusHeader.protocolVersion else {
            throw APIError(
                .preconditionFailed, code: "unsupported_tus_version",
                message:
                    "send Tus-Resumable: \(TusHeader.protocolVersion); this server speaks tus \(TusHeader.protocolVersion) only",
                headers: [TusHeader.version: TusHeader.protocolVersion])
        }
        return token
    }

    func createUpload(_ request: Request, token: UploadToken, desk: UploadDesk) async throws -> Response {
        if request.headers[TusHeader.deferLength] != nil {
            throw APIError(
                .badRequest, code: "invalid_upload_length",
                message: "Upload-Defer-Length is not supported; send Upload-Length")
        }
        guard let text = request.headers[TusHeader.length], let length = Int64(text), length >= 0 else {
            throw APIError(
                .badRequest, code: "invalid_upload_length",
                message:
                    "Upload-Length must be the upload's size in bytes, not \"\((request.headers[TusHeader.length] ?? "missing").prefix(40))\""
            )
        }
        var record = try await desk.create(
            token: token, length: length, metadataHeader: request.headers[TusHeader.metadata], now: Self.now)
        if Self.isOffsetStream(request) {  // creation-with-upload
            record = try await desk.append(
                to: record, offset: 0, checksum: try UploadChecksum(header: request.headers[TusHeader.checksum]),
                body: request.body, now: Self.now)
        }
        var headers = Self.offsetHeaders(record)
        headers[.location] = "/v1/uploads/\(record.id)"
        return Response(status: .created, headers: headers)
    }

    static func offsetHeaders(_ record: UploadRecord) -> HTTPFields {
        var headers: HTTPFields = [TusHeader.offset: String(record.received), .cacheControl: "no-store"]
        if let job = record.jobID {
            headers[TusHeader.reelJob] = "/v1/jobs/\(job)"
        } else {
            headers[TusHeader.expires] = HTTPDate.format(Int(record.expiresAt / 1000))
        }
        return headers
    }

    static func offsetHeader(_ request: Request) throws -> Int64 {
        guard let text = request.headers[TusHeader.offset], let offset = Int64(text), offset >= 0 else {
            throw APIError(
                .badRequest, code: "invalid_offset",
                message:
                    "Upload-Offset must be a byte offset, not \"\((request.headers[TusHeader.offset] ?? "missing").prefix(40))\""
            )
        }
        return offset
    }

    static func isOffsetStream(_ request: Request) -> Bool {
        request.headers[.contentType]?.split(separator: ";").first?.trimmingCharacters(in: .whitespaces).lowercased()
            == TusHeader.offsetContentType
    }

    static var now: Int64 { Int64(Date().timeIntervalSince1970 * 1000) }

    /// Every tus answer, errors included, says `Tus-Resumable`; storage failures get their own codes.
    static func tus(_ body: () async throws -> Response) async throws -> Response {
        do {
            var response = try await body()
            response.headers[TusHeader.resumable] = TusHeader.protocolVersion
            return response
        } catch var error as APIError {
            error.headers[TusHeader.resumable] = TusHeader.protocolVersion
            throw error
        } catch let error as HTTPParserError {
            var refusal = APIError.malformedRequest(error)
            refusal.headers[TusHeader.resumable] = TusHeader.protocolVersion
            throw refusal
        } catch MediaStoreError.full {
            throw APIError(
                HTTPResponse.Status(code: 507, reasonPhrase: "Insufficient Storage"), code: "disk_full",
                message: "the server's disk is full; try again later",
                headers: [.retryAfter: "30", TusHeader.resumable: TusHeader.protocolVersion])
        } catch let error as MediaStoreError where error.isRetryable {
            // Nothing was acknowledged that is not in the store; the client resumes from HEAD's offset.
            throw APIError(
                .serviceUnavailable, code: "storage_unavailable",
                message: "the upload store did not answer (\(error.description)); try again shortly",
                headers: [.retryAfter: "5", TusHeader.resumable: TusHeader.protocolVersion])
        }
    }
}
