package import NIOCore
internal import NIOHTTP1

/// S3's multipart upload: parts of at least 5 MB (the last may be smaller), at most 10 000 of them, put together by
/// the completion in one step, so readers see the whole object or nothing.
extension S3Client {
    /// S3's smallest part but the last.
    package static let minimumPartSize = 5 << 20
    package static let maximumParts = 10_000

    /// Starts a multipart upload to `key`; the object gets `contentType`, `cacheControl` and `metadata` when
    /// completed. - Returns: the upload id.
    package func createMultipartUpload(
        _ key: ObjectKey, contentType: String, cacheControl: String, metadata: [String: String] = [:]
    ) async throws -> String {
        let what = "create multipart upload to \(name(key))"
        let answer = try await send(
            Call(
                .POST, key: fullKey(key), query: [("uploads", "")],
                headers: Self.objectHeaders(contentType: contentType, cacheControl: cacheControl, metadata: metadata),
                what: what))
        guard let id = S3XML.value("UploadId", in: String(buffer: answer.body)[...]), !id.isEmpty else {
            throw ObjectStoreError(.badResponse, "\(what): no UploadId in the answer")
        }
        return id
    }

    /// Uploads part `number` (1...10000) of `uploadID`.
    package func uploadPart(_ key: ObjectKey, uploadID: String, number: Int, bytes: ByteBuffer) async throws -> S3Part {
        guard (1...Self.maximumParts).contains(number) else {
            throw ObjectStoreError(.refused, "part number \(number) is outside S3's 1...\(Self.maximumParts)")
        }
        let what = "PUT part \(number) of \(name(key))"
        let answer = try await send(
            Call(
                .PUT, key: fullKey(key), query: [("partNumber", String(number)), ("uploadId", uploadID)], body: bytes,
                what: what))
        guard let etag = answer.headers.first(name: "etag"), !etag.isEmpty else {
            throw ObjectStoreError(.badResponse, "\(what): no ETag in the answer")
        }
        return S3Part(number: number, etag: etag, size: Int64(bytes.readableBytes))
    }

    /// Puts the parts together into the object. With `createOnly` the completion carries `If-None-Match: *`.
    /// - Returns: the object's entity tag.
    @discardableResult
    package func completeMultipartUpload(
        _ key: ObjectKey, uploadID: String, parts: [S3Part], createOnly: Bool = false
    ) async throws -> String {
        let what = "complete multipart upload to \(name(key))"
        var xml = "<CompleteMultipartUpload>"
        for part in parts.sorted(by: { $0.number < $1.number }) {
            xml += "<Part><PartNumber>\(part.number)</PartNumber><ETag>\(S3XML.escape(part.etag))</ETag></Part>"
        }
        xml += "</CompleteMultipartUpload>"
        let answer = try await send(
            Call(
                .POST, key: fullKey(key), query: [("uploadId", uploadID)],
                headers: [("content-type", "application/xml")] + (createOnly ? [("if-none-match", "*")] : []),
                body: ByteBuffer(string: xml), what: what))
        // S3 may answer 200 and report the failure in the body, once the completion has run for a while.
        let text = String(buffer: answer.body)
        if text.contains("<Error>") {
            let code = S3XML.value("Code", in: text[...])
            throw Self.classify(
                status: code == "PreconditionFailed" ? 412 : 500, code: code,
                message: S3XML.value("Message", in: text[...]), Call(.POST, key: nil, what: what))
        }
        return S3XML.value("ETag", in: text[...]) ?? answer.headers.first(name: "etag") ?? ""
    }

    /// Abandons `uploadID` and frees its parts; an upload already gone is not an error.
    package func abortMultipartUpload(_ key: ObjectKey, uploadID: String) async throws {
        do {
            _ = try await send(
                Call(
                    .DELETE, key: fullKey(key), query: [("uploadId", uploadID)],
                    what: "abort multipart upload to \(name(key))"))
        } catch let error as ObjectStoreError where error.reason == .notFound {
            return
        }
    }

    /// The parts uploaded so far, in order (for resuming an upload another server began).
    package func listParts(_ key: ObjectKey, uploadID: String) async throws -> [S3Part] {
        let what = "list parts of \(name(key))"
        var parts: [S3Part] = []
        var marker: String?
        repeat {
            var query: [(name: String, value: String)] = [("uploadId", uploadID)]
            if let marker { query.append(("part-number-marker", marker)) }
            let answer = try await send(
                Call(.GET, key: fullKey(key), query: query, what: what), collectingUpTo: 8 << 20)
            let text = String(buffer: answer.body)
            for block in S3XML.blocks("Part", in: text[...]) {
                guard let number = S3XML.value("PartNumber", in: block).flatMap(Int.init),
                    let etag = S3XML.value("ETag", in: block),
                    let size = S3XML.value("Size", in: block).flatMap(Int64.init)
                else { throw ObjectStoreError(.badResponse, "\(what): a part without its number, ETag or size") }
                parts.append(S3Part(number: number, etag: etag, size: size))
            }
            let truncated = S3XML.value("IsTruncated", in: text[...]) == "true"
            marker = truncated ? S3XML.value("NextPartNumberMarker", in: text[...]) : nil
        } while marker != nil
        return parts
    }
}
