package import AsyncHTTPClient
package import NIOCore

/// An object opened for streaming: what the store answered (200, 206 or 304) and the body still to be read.
package struct S3Download: Sendable {
    package let status: Int
    /// From the answer's headers: `size` is this answer's `Content-Length` (the range's, for a 206).
    package let info: ObjectInfo
    package let contentRange: String?
    package let body: HTTPClientResponse.Body
}

extension S3Download {
    /// The body read whole, for a caller that keeps it.
    /// - Throws: `ObjectStoreError` `.badResponse` past `limit` bytes, `.unavailable` when the answer breaks off;
    ///   `CancellationError`.
    package func collect(upTo limit: Int) async throws -> ByteBuffer {
        try await Self.collect(body, upTo: limit, what: "GET \(info.key)")
    }

    /// `body` read whole, its failures named after `what` (the call).
    static func collect(_ body: HTTPClientResponse.Body, upTo limit: Int, what: String) async throws -> ByteBuffer {
        do {
            return try await body.collect(upTo: limit)
        } catch let error as NIOTooManyBytesError {
            throw ObjectStoreError(.badResponse, "\(what): the answer is over \(limit) bytes (\(error))")
        } catch {
            if Task.isCancelled { throw CancellationError() }
            throw ObjectStoreError(.unavailable, "\(what): the answer broke off: \(error)")
        }
    }
}
